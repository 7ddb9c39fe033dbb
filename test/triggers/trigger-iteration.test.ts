import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import { SkillgymError } from "../../src/errors.js";
import { createBudget } from "../../src/run/budget.js";
import { runTriggers, type TriggerOptions } from "../../src/triggers/index.js";
import { readJson, tempDir } from "../e2e/helpers.js";
import { haikuTriggerOptions, writeHaikuSkill } from "./haiku-triggers.js";

// Which iteration a trigger eval goes into, and what it refuses, with an exhausted budget: runTriggers writes its plan
// and starts no agent, so no simulator is needed.
let dir: string;
let cleanup: () => Promise<void>;
let agent: Agent;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeHaikuSkill(dir, [{ query: "write a haiku", should_trigger: true }]);
  agent = await createClaudeCodeAgent({ simulatorUrl: "http://127.0.0.1:9" });
});
afterAll(() => cleanup());

const options = (workspace: string, overrides: Partial<TriggerOptions> = {}): TriggerOptions =>
  haikuTriggerOptions(dir, workspace, {
    budget: createBudget(0, 1),
    createAgent: async () => agent,
    ...overrides,
  });

describe("the iteration of a trigger eval", () => {
  it("is a new one after an iteration holding no trigger plan, or an unreadable one", async () => {
    const ws = join(dir, "ws-evals");
    // An eval iteration: no triggers/plan.json in it.
    await mkdir(join(ws, "iteration-1"), { recursive: true });
    const first = await runTriggers(options("ws-evals"));
    expect(first.iterationDir).toBe(join(ws, "iteration-2"));
    // The budget stopped it before any run: an interrupted plan. Spoiled, it is not resumed.
    const plan = join(ws, "iteration-2", "triggers", "plan.json");
    expect(await readJson(plan)).toMatchObject({ status: "interrupted" });
    await writeFile(plan, "{ not json");
    expect((await runTriggers(options("ws-evals"))).iterationDir).toBe(join(ws, "iteration-3"));
    // An intact interrupted plan of the same eval is resumed.
    expect((await runTriggers(options("ws-evals"))).iterationDir).toBe(join(ws, "iteration-3"));
  });
});

describe("--screen replay", () => {
  it("is refused for an agent with no replay, before anything is made; without it that agent runs", async () => {
    const noReplay = async () => ({ ...agent, name: "opencode" });
    const refused = await runTriggers(
      options("ws-screen", { screen: { kind: "replay" }, createAgent: noReplay }),
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SkillgymError);
    expect(refused).toMatchObject({ code: "USAGE" });
    expect((refused as Error).message).toBe("--screen replay is not available with opencode yet");
    expect(await readdir(join(dir, "ws-screen")).catch(() => [])).toEqual([]);
    const unscreened = await runTriggers(options("ws-screen", { createAgent: noReplay }));
    expect(unscreened.results.agent?.name).toBe("opencode");
  });
});
