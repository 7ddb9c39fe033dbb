import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agents/registry.js";
import { SIM_MODEL } from "../../../src/contracts/sim-model.js";
import { tempDir, writeTree } from "../../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

// A stand-in for an installed Gemini CLI: answers with the model it was told to use and a variable the suite passes on.
const FAKE_GEMINI = `
const m = process.argv.indexOf("-m");
const model = m === -1 ? "none" : process.argv[m + 1];
console.log(JSON.stringify({ type: "init", model, session_id: "s" }));
const text = model + " " + (process.env.SUITE_REGION ?? "unset");
console.log(JSON.stringify({ type: "message", role: "assistant", content: text }));
console.log(JSON.stringify({ type: "result", status: "success", stats: {} }));
`;

describe("a Gemini CLI run", () => {
  it("uses the simulator's model unless the run names one, passes the suite's variables, and names its skills and version", async () => {
    await writeTree(dir, {
      "pkg/package.json": JSON.stringify({ name: "@google/gemini-cli", version: "9.8.7" }),
      "pkg/bundle/gemini.js": FAKE_GEMINI,
      "pkg/bundle/builtin/skill-creator/SKILL.md": "---\nname: skill-creator\n---\n",
      "work/.gemini/skills/haiku/SKILL.md": "---\nname: haiku\n---\n",
      "home/.keep": "",
    });
    const agent = await createAgent("gemini", {
      binary: join(dir, "pkg", "bundle", "gemini.js"),
      env: { PATH: "", HOME: dir, SUITE_REGION: "eu-west" },
      simulatorUrl: "http://127.0.0.1:9",
      passEnv: ["SUITE_REGION"],
    });
    expect(agent.version).toBe("9.8.7");
    const run = (model?: string) =>
      agent.run({
        prompt: "hi",
        cwd: join(dir, "work"),
        home: join(dir, "home"),
        timeoutMs: 30_000,
        ...(model ? { model } : {}),
      });
    const simulated = await run();
    expect(simulated.result?.text).toBe(`${SIM_MODEL} eu-west`);
    expect(simulated.init).toMatchObject({ version: "9.8.7", skills: ["haiku", "skill-creator"] });
    expect((await run("gemini-2.5-flash")).result?.text).toBe("gemini-2.5-flash eu-west");
  });
});
