import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createCodexAgent } from "../../../src/agents/codex/agent.js";
import { SimScript } from "../../../src/contracts/sim-script.js";
import { type SimServer, startSim } from "../../../src/sim/index.js";
import { codexReplay } from "../../../src/triggers/replay/codex.js";
import { replayMarker } from "../../../src/triggers/replay/marker.js";
import { startRecordingProxy } from "../../../src/triggers/replay/recording-proxy.js";
import { tempDir } from "../../e2e/helpers.js";

// A capture run of Codex on OpenAI's own provider (not the simulator's): `openai_base_url` and OPENAI_BASE_URL send it
// to the recording proxy, wherever the user's own variable pointed. Here the proxy stands in front of the simulator,
// and the key is a placeholder: nothing leaves the machine.
let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  sim = await startSim({
    script: SimScript.parse({ rules: [{ skill: "none", without_skill: [{ text: "Sure." }] }] }),
    logBodies: true,
  });
});
afterAll(async () => {
  await sim.close();
  await cleanup();
});

it("sends a Codex run on OpenAI's provider through the proxy, and its first real request is found there", async () => {
  const agent = await createCodexAgent({
    env: {
      PATH: process.env.PATH,
      CODEX_API_KEY: "sk-placeholder",
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    },
  });
  expect(agent.apiBaseUrl).toBe("http://127.0.0.1:9/v1");
  const proxy = await startRecordingProxy(`${sim.url}/v1`);
  const marker = replayMarker();
  try {
    await mkdir(join(dir, "work"));
    await mkdir(join(dir, "home"));
    const ran = await agent.run({
      prompt: marker,
      cwd: join(dir, "work"),
      home: join(dir, "home"),
      timeoutMs: 90_000,
      apiBaseUrl: proxy.url,
    });
    expect(ran.outcome, ran.message).toBe("success");
  } finally {
    await proxy.close();
  }
  const first = proxy.recorded.filter((r) => codexReplay.isFirstRequest(r, marker));
  expect(first.map((r) => [r.method, r.path])).toEqual([["POST", "/responses"]]);
  // What the simulator got is what the proxy kept, byte for byte.
  const reached = sim.log.filter((e) => e.prompt === marker);
  expect(reached.map((e) => e.body)).toEqual([first[0]!.body]);
});
