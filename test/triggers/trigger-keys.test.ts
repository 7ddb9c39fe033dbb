import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import { triggerRunKeys } from "../../src/triggers/reuse-trigger.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let agent: Agent;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, { "helper/SKILL.md": skillMd("helper", "Helps with other things.", "Body.") });
  agent = await createClaudeCodeAgent({ simulatorUrl: "http://127.0.0.1:9" });
});
afterAll(() => cleanup());

const context = () => ({ agent, skillName: "notes", timeoutMs: 60_000, companions: [] });
const spec = { query: "draft the release notes", runNumber: 1 };

describe("the store key of a trigger run", () => {
  it("is the same for the same run, and another for another description", async () => {
    const key = await triggerRunKeys(context(), "Drafts release notes.")(spec);
    expect(await triggerRunKeys(context(), "Drafts release notes.")(spec)).toBe(key);
    expect(await triggerRunKeys(context(), "Drafts release notes from commits.")(spec)).not.toBe(key);
  });

  it("changes with the query, the run number, the model and the skills installed beside it", async () => {
    const keys = triggerRunKeys(context(), "Drafts release notes.");
    const key = await keys(spec);
    expect(await keys({ ...spec, query: "fix the parser test" })).not.toBe(key);
    expect(await keys({ ...spec, runNumber: 2 })).not.toBe(key);
    expect(
      await triggerRunKeys({ ...context(), model: "other-model" }, "Drafts release notes.")(spec),
    ).not.toBe(key);
    const companions = [{ sourceDir: `${dir}/helper`, installName: "helper" }];
    expect(await triggerRunKeys({ ...context(), companions }, "Drafts release notes.")(spec)).not.toBe(key);
  });

  // A change to how the key is made throws away every trigger run users have stored: the value is fixed on purpose.
  // It is storeKey of { kind: "trigger-run", agent, version, mode: null, model: null, simulated: false,
  // sim_script: null, name, description, timeout_ms, companions: [], query, run }.
  it("is a fixed value for a fixed run", async () => {
    const fixed = { name: "claude-code", version: "2.1.0", simulated: false } as unknown as Agent;
    const keys = triggerRunKeys({ ...context(), agent: fixed }, "Drafts release notes.");
    expect(await keys(spec)).toBe("5ae46754c70d494defb38dd2cc975786e51c3fe4459d260bd8c24b39cc111531");
  });
});
