import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agents/registry.js";
import { tempDir, writeTree } from "../../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

// A stand-in for the gemini binary: answers with the base URL it was given, as one stream-json turn.
const FAKE_GEMINI = `
const url = process.env.GOOGLE_GEMINI_BASE_URL ?? "none";
console.log(JSON.stringify({ type: "init", model: "m", session_id: "s" }));
console.log(JSON.stringify({ type: "message", role: "assistant", content: url }));
console.log(JSON.stringify({ type: "result", status: "success", stats: {} }));
`;

describe("where Gemini CLI sends its model requests", () => {
  it("is the simulator, else GOOGLE_GEMINI_BASE_URL, else the Gemini API", async () => {
    const env = { PATH: "", HOME: dir, GEMINI_API_KEY: "AIzaKey" };
    expect((await createAgent("gemini", { env })).apiBaseUrl).toBe(
      "https://generativelanguage.googleapis.com",
    );
    expect(
      (await createAgent("gemini", { env: { ...env, GOOGLE_GEMINI_BASE_URL: "https://gw.example/g" } }))
        .apiBaseUrl,
    ).toBe("https://gw.example/g");
    expect((await createAgent("gemini", { env, simulatorUrl: "http://127.0.0.1:9" })).apiBaseUrl).toBe(
      "http://127.0.0.1:9",
    );
  });

  it("is the run's own base URL when the run names one (a replay's recording proxy), else the agent's", async () => {
    await writeTree(dir, { "bin/gemini.js": FAKE_GEMINI, "work/.keep": "", "home/.keep": "" });
    const agent = await createAgent("gemini", {
      binary: join(dir, "bin", "gemini.js"),
      env: { PATH: "", HOME: dir },
      simulatorUrl: "http://127.0.0.1:9",
    });
    const run = (apiBaseUrl?: string) =>
      agent.run({
        prompt: "hi",
        cwd: join(dir, "work"),
        home: join(dir, "home"),
        timeoutMs: 30_000,
        ...(apiBaseUrl ? { apiBaseUrl } : {}),
      });
    expect((await run("http://127.0.0.1:7/proxy")).result?.text).toBe("http://127.0.0.1:7/proxy");
    expect((await run()).result?.text).toBe("http://127.0.0.1:9");
  });
});
