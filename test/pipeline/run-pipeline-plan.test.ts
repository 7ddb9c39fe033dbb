import { access } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simulatedUnitSeconds } from "../../src/pipeline/estimate.js";
import { planPipeline, runPipeline } from "../../src/pipeline/index.js";
import type { PipelineOptions } from "../../src/pipeline/options.js";
import { planAgentsPipeline } from "../../src/pipeline/plan-agents.js";
import { skillMd, writeTree } from "../e2e/helpers.js";
import { cardPipelineOptions, useCardBench } from "./pipeline-fixtures.js";

// planPipeline (`run --dry-run`) in this process; the result store's forecast asks the claude-code adapter on the
// test double for its identity only. One sim for the file, for the run that fills a store.
const bench = useCardBench();

function options(workspace: string, overrides: Partial<PipelineOptions> = {}): PipelineOptions {
  return cardPipelineOptions(bench.dir, () => bench.simulated(), {
    workspace: join(bench.dir, workspace),
    ...overrides,
  });
}

describe("planPipeline", () => {
  it("counts each eval run with and without the skill, the judge calls of evals with expectations, and every trigger run", async () => {
    const plan = await planPipeline(options("plan", { triggerRuns: 3 }), true);
    expect(plan).toEqual({
      skill: "card",
      agentRuns: 4,
      judgeCalls: 2,
      triggerRuns: 6,
      costUsd: 0,
      unitCosts: { agentRunUsd: 0, triggerRunUsd: 0, judgeCallUsd: 0 },
      // 4 eval runs in 1 wave of 4 s, 2 judge calls in 1 wave of 0.5 s, 6 trigger runs in 2 waves of 3 s.
      wallSeconds: 10.5,
      unitSeconds: { ...simulatedUnitSeconds, measured: false },
      concurrency: 4,
    });
    await expect(access(join(bench.dir, "plan"))).rejects.toThrow();
  });

  it("counts one configuration without a baseline", async () => {
    expect(await planPipeline(options("plan", { baseline: "none" }), true)).toMatchObject({
      agentRuns: 2,
      judgeCalls: 1,
    });
    expect(await planPipeline(options("plan", { baseline: "old_skill" }), true)).toMatchObject({
      agentRuns: 4,
      judgeCalls: 2,
    });
  });

  it("counts the evals of another evals file, and only those --only picks", async () => {
    const evalsPath = join(bench.dir, "card", "evals", "checks-only.json");
    expect(await planPipeline(options("plan", { evalsPath }), true)).toMatchObject({
      agentRuns: 4,
      judgeCalls: 0,
    });
    expect(await planPipeline(options("plan", { only: ["1"] }), true)).toMatchObject({
      agentRuns: 2,
      judgeCalls: 2,
    });
  });

  it("counts the suite found in the --project-root given", async () => {
    await writeTree(bench.dir, {
      "bare/SKILL.md": skillMd(
        "bare",
        "Writes bare cards. Use when the user asks for a bare card.",
        "Write it.",
      ),
      "project/evals/bare/triggers.json": JSON.stringify([{ query: "q1 a bare card", should_trigger: true }]),
    });
    const bare = options("plan", {
      skillPath: join(bench.dir, "bare"),
      projectRoot: join(bench.dir, "project"),
    });
    expect(await planPipeline(bare, true)).toMatchObject({ skill: "bare", agentRuns: 0, triggerRuns: 1 });
  });

  it("prices the runs at what earlier real iterations cost, else the defaults", async () => {
    // 4 eval runs at 0.3, 2 judge calls and 2 trigger runs at 0.05.
    expect((await planPipeline(options("plan"), false)).costUsd).toBeCloseTo(1.4, 10);
  });

  it("counts one shard's share of the runs --only picks, beside the whole plan's", async () => {
    const shard = (index: number) =>
      planPipeline(options("plan", { only: ["1"], shard: { index, count: 2 } }), true);
    const [first, second] = [await shard(1), await shard(2)];
    expect(first.shard).toEqual({ index: 1, count: 2, agentRuns: 2, triggerRuns: 2 });
    expect(second.shard).toEqual({ index: 2, count: 2, agentRuns: 2, triggerRuns: 2 });
    expect(first.agentRuns + second.agentRuns).toBe(2);
    expect(first.triggerRuns + second.triggerRuns).toBe(2);
  });

  it("forecasts --screen replay over the trigger runs, with a capture for each set of conditions", async () => {
    const screen = { kind: "replay" as const };
    expect((await planPipeline(options("plan", { screen }), true)).screen).toEqual({
      kind: "replay",
      capture_runs: 1,
      replay_requests: 2,
      agent_runs_up_to: 2,
    });
    const sideBySide = await planPipeline(
      options("plan", { screen, conditions: { clean: true, real: true } }),
      true,
    );
    expect(sideBySide.screen?.capture_runs).toBe(2);
    const cleanOnly = await planPipeline(
      options("plan", { screen, conditions: { clean: true, real: false } }),
      true,
    );
    expect(cleanOnly.screen?.capture_runs).toBe(1);
    expect((await planPipeline(options("plan", { screen, stage: "evals" }), true)).screen).toBeUndefined();
    expect((await planPipeline(options("plan"), true)).screen).toBeUndefined();
  });

  it("forecasts what the result store serves, by the keys a real run would compute", async () => {
    const stored = options("stored", { stage: "evals", only: ["2"], baseline: "none", store: {} });
    await runPipeline(stored);
    const plan = await planPipeline(options("stored", { only: ["2"], baseline: "none", store: {} }), true);
    expect(plan.store).toEqual({
      evalRuns: {
        runs: 1,
        served: 1,
        toRun: 0,
        judgeServed: 0,
        judgeToRun: 0,
        workspace: join(bench.dir, "stored"),
        storeDir: join(bench.dir, "stored", ".skillgym-cache"),
      },
      triggerRuns: {
        runs: 2,
        served: 0,
        toRun: 2,
        judgeServed: 0,
        judgeToRun: 0,
        workspace: join(bench.dir, "stored"),
        storeDir: join(bench.dir, "stored", ".skillgym-cache"),
      },
      costUsd: 0,
      savedUsd: 0,
    });
    const screened = await planPipeline(
      options("stored", { only: ["2"], baseline: "none", store: {}, screen: { kind: "replay" } }),
      true,
    );
    expect(screened.screen?.agent_runs_up_to).toBe(2);
    expect(
      (await planPipeline(options("stored", { stage: "evals", store: {} }), true)).store?.triggerRuns,
    ).toBe(undefined);
  }, 60_000);
});

describe("planAgentsPipeline", () => {
  it("plans one part per model when one agent runs several, named and ordered as the run would", async () => {
    const plans = await planAgentsPipeline(
      {
        ...options("agents"),
        agents: ["claude-code"],
        models: ["m1", "m2"],
        createAgent: () => bench.simulated(),
      },
      true,
    );
    expect(plans.map((p) => [p.agent, p.model, p.plan.agentRuns])).toEqual([
      ["m1", "m1", 4],
      ["m2", "m2", 4],
    ]);
  });

  it("plans one part per agent under the one --model given, or none", async () => {
    const base = {
      ...options("agents"),
      agents: ["claude-code", "codex"],
      createAgent: () => bench.simulated(),
    };
    expect((await planAgentsPipeline({ ...base, model: "m9" }, true)).map((p) => [p.agent, p.model])).toEqual(
      [
        ["claude-code", "m9"],
        ["codex", "m9"],
      ],
    );
    const plain = await planAgentsPipeline(base, true);
    expect(plain.map((p) => p.agent)).toEqual(["claude-code", "codex"]);
    expect(plain.every((p) => !("model" in p))).toBe(true);
  });
});
