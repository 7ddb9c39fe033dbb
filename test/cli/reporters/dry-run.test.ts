import { describe, expect, it } from "vitest";
import {
  agentPlansLines,
  pipelinePlanLines,
  shardShareLine,
  storePlanLines,
} from "../../../src/cli/reporters/dry-run.js";
import { defaultUnitCosts, defaultUnitSeconds } from "../../../src/pipeline/estimate.js";
import type { PipelinePlan, StorePlan } from "../../../src/pipeline/index.js";
import type { StoreForecast } from "../../../src/run/store-forecast.js";

const forecast = (over: Partial<StoreForecast> = {}): StoreForecast => ({
  runs: 8,
  served: 3,
  toRun: 5,
  judgeServed: 0,
  judgeToRun: 0,
  workspace: "/ws",
  storeDir: "/store",
  ...over,
});

const plan = (over: Partial<PipelinePlan> = {}): PipelinePlan => ({
  skill: "card",
  agentRuns: 8,
  triggerRuns: 12,
  judgeCalls: 4,
  costUsd: 3.4,
  unitCosts: defaultUnitCosts,
  wallSeconds: 600,
  unitSeconds: defaultUnitSeconds,
  concurrency: 4,
  ...over,
});

const wall =
  "estimated wall time: about 10m00s at --concurrency 4 (2m00s per eval run, 30s per trigger run: defaults)";

describe("storePlanLines", () => {
  it("says the store was not read when no forecast names it", () => {
    expect(storePlanLines({ costUsd: 1, savedUsd: 0 })).toEqual([
      "result store: not read (--fresh, or none): every run is made",
    ]);
    expect(storePlanLines({ evalRuns: forecast({ storeDir: undefined }), costUsd: 1, savedUsd: 0 })).toEqual([
      "result store: not read (--fresh, or none): every run is made",
    ]);
  });

  it("says what the store serves of each kind of run, the judge calls, the settled runs and what the rest costs", () => {
    const store: StorePlan = {
      evalRuns: forecast({ judgeServed: 2, judgeToRun: 3 }),
      triggerRuns: forecast({ runs: 12, served: 4, toRun: 6, storeDir: undefined }),
      catalogRuns: forecast({ runs: 6, served: 0, toRun: 6 }),
      costUsd: 2.5,
      savedUsd: 1.25,
    };
    expect(storePlanLines(store)).toEqual([
      "result store: /store",
      "  eval runs: 3 of 8 served by the store, 5 to run; judge calls: 2 served, 3 to make",
      "  trigger runs: 4 of 12 served by the store, at most 6 to run, 2 not needed (settled)",
      "  catalog runs: 0 of 6 served by the store, 6 to run",
      "the rest costs about $2.50 (the store saves about $1.25)",
    ]);
  });

  it("says the store serves everything, and a judge call alone is left to make", () => {
    expect(
      storePlanLines({ triggerRuns: forecast({ served: 8, toRun: 0 }), costUsd: 0, savedUsd: 0.4 }),
    ).toEqual([
      "result store: /store",
      "  trigger runs: 8 of 8 served by the store, at most 0 to run",
      "all runs would be served by the store: the rest costs $0.00 (saves about $0.40)",
    ]);
    expect(
      storePlanLines({
        evalRuns: forecast({ served: 8, toRun: 0, judgeServed: 0, judgeToRun: 1 }),
        costUsd: 0.05,
        savedUsd: 2.4,
      }).at(-1),
    ).toBe("the rest costs about $0.05 (the store saves about $2.40)");
    // One run and one judge call left: both count.
    expect(
      storePlanLines({
        evalRuns: forecast({ served: 7, toRun: 1, judgeServed: 0, judgeToRun: 1 }),
        costUsd: 0.35,
        savedUsd: 2.1,
      }).at(-1),
    ).toBe("the rest costs about $0.35 (the store saves about $2.10)");
  });
});

describe("shardShareLine", () => {
  it("says this shard's share of the whole plan, nothing without a shard", () => {
    expect(shardShareLine(plan())).toBeUndefined();
    expect(shardShareLine(plan({ shard: { index: 2, count: 3, agentRuns: 24, triggerRuns: 36 } }))).toBe(
      "shard 2/3: 20 of 60 runs (8 of 24 eval runs, 12 of 36 trigger runs); the lines below are this shard's",
    );
  });
});

describe("pipelinePlanLines", () => {
  it("prints the runs, the rough cost and the wall time", () => {
    expect(pipelinePlanLines(plan())).toEqual([
      "plan for card: 8 eval runs, 12 trigger runs, 4 judge calls",
      "estimated cost: about $3.40 (rough: $0.30 per eval run, $0.05 per trigger run, $0.05 per judge call)",
      wall,
    ]);
  });

  it("puts a shard's share first and the store's part last", () => {
    expect(
      pipelinePlanLines(
        plan({
          shard: { index: 1, count: 2, agentRuns: 16, triggerRuns: 24 },
          store: { evalRuns: forecast(), costUsd: 1.5, savedUsd: 0.9 },
        }),
      ),
    ).toEqual([
      "shard 1/2: 20 of 40 runs (8 of 16 eval runs, 12 of 24 trigger runs); the lines below are this shard's",
      "plan for card: 8 eval runs, 12 trigger runs, 4 judge calls",
      "estimated cost: about $3.40 (rough: $0.30 per eval run, $0.05 per trigger run, $0.05 per judge call)",
      wall,
      "result store: /store",
      "  eval runs: 3 of 8 served by the store, 5 to run",
      "the rest costs about $1.50 (the store saves about $0.90)",
    ]);
  });
});

describe("agentPlansLines", () => {
  it("prints nothing for no agent", () => {
    expect(agentPlansLines([])).toEqual([]);
  });

  it("prints an agent's wall time alone when its plan has no store part", () => {
    expect(agentPlansLines([{ agent: "codex", plan: plan() }]).slice(2, -1)).toEqual(["codex:", `  ${wall}`]);
  });

  it("prints the shared plan per agent, each agent's wall time and store, then the agents together", () => {
    const lines = agentPlansLines([
      { agent: "claude-code", plan: plan({ store: { evalRuns: forecast(), costUsd: 1.5, savedUsd: 0.9 } }) },
      {
        agent: "codex",
        plan: plan({
          wallSeconds: 300,
          store: {
            triggerRuns: forecast({ storeDir: undefined, served: 0, toRun: 8 }),
            costUsd: 0.4,
            savedUsd: 0,
          },
        }),
      },
    ]);
    expect(lines).toEqual([
      "plan for card, per agent (claude-code, codex): 8 eval runs, 12 trigger runs, 4 judge calls",
      "estimated cost per agent: about $3.40 (rough: $0.30 per eval run, $0.05 per trigger run, $0.05 per judge call); all 2 agents: about $6.80",
      "claude-code:",
      `  ${wall}`,
      "  result store: /store",
      "    eval runs: 3 of 8 served by the store, 5 to run",
      "  the rest costs about $1.50 (the store saves about $0.90)",
      "codex:",
      "  estimated wall time: about 5m00s at --concurrency 4 (2m00s per eval run, 30s per trigger run: defaults)",
      "  result store: not read (--fresh, or none): every run is made",
      // Not every agent reads a store: no total for what the store leaves.
      "all 2 agents: estimated wall time about 15m00s (the agents run one after another)",
    ]);
  });

  it("sums what the store leaves when every agent reads one, and names the parts models or parts", () => {
    const stored = (costUsd: number) => ({ evalRuns: forecast(), costUsd, savedUsd: 0 });
    const models = agentPlansLines([
      { agent: "claude-code", model: "haiku", plan: plan({ store: stored(1.5) }) },
      {
        agent: "claude-code",
        model: "sonnet",
        plan: plan({ store: { triggerRuns: forecast(), costUsd: 0.25, savedUsd: 0 } }),
      },
    ]);
    expect(models[0]).toBe(
      "plan for card, per model (claude-code, claude-code): 8 eval runs, 12 trigger runs, 4 judge calls",
    );
    expect(models.at(-1)).toBe(
      "all 2 models: estimated wall time about 20m00s (the models run one after another); what the store does not serve costs about $1.75",
    );
    const parts = agentPlansLines([
      {
        agent: "claude-code",
        model: "haiku",
        plan: plan({ shard: { index: 1, count: 2, agentRuns: 16, triggerRuns: 24 }, store: stored(1) }),
      },
      { agent: "claude-code", model: "sonnet", plan: plan({ store: stored(1) }) },
      { agent: "codex", model: "haiku", plan: plan({ store: stored(1) }) },
      { agent: "codex", model: "sonnet", plan: plan({ store: stored(1) }) },
    ]);
    expect(parts[0]).toBe(
      "shard 1/2: 20 of 40 runs (8 of 16 eval runs, 12 of 24 trigger runs); the lines below are this shard's, per part",
    );
    expect(parts[2]).toMatch(/^estimated cost per part: about \$3\.40 .*; all 4 parts: about \$13\.60$/);
    expect(parts.at(-1)).toBe(
      "all 4 parts: estimated wall time about 40m00s (the parts run one after another); what the store does not serve costs about $4.00",
    );
  });

  it("gives no store total under --fresh, where the eval runs' forecast names no store and no trigger runs are planned", () => {
    const fresh = { evalRuns: forecast({ storeDir: undefined }), costUsd: 2.4, savedUsd: 0 };
    const lines = agentPlansLines([
      { agent: "claude-code", plan: plan({ store: fresh }) },
      { agent: "codex", plan: plan({ store: fresh }) },
    ]);
    expect(lines.at(-1)).toBe(
      "all 2 agents: estimated wall time about 20m00s (the agents run one after another)",
    );
  });

  it("counts one model named for every agent as agents", () => {
    const lines = agentPlansLines([
      { agent: "claude-code", model: "m", plan: plan() },
      { agent: "codex", model: "m", plan: plan() },
    ]);
    expect(lines[0]).toMatch(/^plan for card, per agent \(claude-code, codex\)/);
  });
});
