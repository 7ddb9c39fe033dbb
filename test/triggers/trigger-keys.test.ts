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
});
