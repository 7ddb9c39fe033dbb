import { afterEach, describe, expect, it } from "vitest";
import { type SimServer, startSim } from "../../../src/sim/index.js";
import { startRecordingProxy } from "../../../src/triggers/replay/recording-proxy.js";
import { claudeRequest } from "../../sim/sim-client.js";

let sim: SimServer | undefined;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  await sim?.close();
});

describe("the recording proxy", () => {
  it("passes each request on unchanged, keeps it as it came, and streams the answer back whole", async () => {
    sim = await startSim({ logBodies: true });
    const proxy = await startRecordingProxy(`${sim.url}/`);
    close = proxy.close;
    const body = JSON.stringify(claudeRequest({ prompt: "a haiku — «über» 🎉", stream: true }));
    const headers = {
      "content-type": "application/json",
      "x-claude-code-session-id": "s1",
      "user-agent": "claude-cli/x",
    };
    const through = await fetch(`${proxy.url}/v1/messages?beta=true`, { method: "POST", headers, body });
    const text = await through.text();

    expect(through.headers.get("content-type")).toMatch(/text\/event-stream/);
    expect(text).toMatch(/message_stop/);
    expect(proxy.recorded).toHaveLength(1);
    expect(proxy.recorded[0]).toMatchObject({ method: "POST", path: "/v1/messages?beta=true", body });
    expect(proxy.recorded[0]?.headers["user-agent"]).toBe("claude-cli/x");
    expect(sim.log[0]?.body).toBe(body);
    expect(sim.log[0]?.headers?.["x-claude-code-session-id"]).toBe("s1");
    expect(sim.log[0]?.path).toBe("/v1/messages?beta=true");
  });
});
