import { describe, expect, it } from "vitest";
import type { IterationRecord, TriggerPlan } from "../../src/contracts/run-record.js";
import type { MergePartial, ShardInfo } from "../../src/contracts/shard.js";
import type { TriggerQueryResult, TriggerResults } from "../../src/contracts/trigger-results.js";
import { byShardIndex } from "../../src/merge/check-shards.js";
import { checkShards, mergeTriggerResults, partialOf, type ShardData } from "../../src/merge/index.js";
import { plannedRuns, sumPartials } from "../../src/merge/shortfall.js";
import { withoutShard } from "../../src/merge/write-merged.js";

const bare = (more: Partial<ShardData>): ShardData => ({
  source: "s",
  dir: "/s",
  evalRuns: [],
  triggerRuns: [],
  finished: { evalRuns: 0, triggerRuns: 0 },
  ...more,
});

describe("plannedRuns", () => {
  it("multiplies evals, configurations and runs, and queries by runs; 0 for a part not run", () => {
    const iteration = {
      plan: { evals: [1, 2, 3], configurations: ["with_skill", "without_skill"], runs_per_configuration: 5 },
    } as IterationRecord & { shard: ShardInfo };
    const triggerPlan = { queries: ["a", "b", "c", "d"], runs_per_query: 3 } as TriggerPlan & {
      shard: ShardInfo;
    };
    expect(plannedRuns(bare({ iteration, triggerPlan }))).toEqual({ eval: 30, trigger: 12 });
    expect(plannedRuns(bare({}))).toEqual({ eval: 0, trigger: 0 });
  });
});

describe("partialOf", () => {
  it("is nothing for no shards", () => {
    expect(partialOf([], { problems: [], count: 2, missing: [1, 2] })).toBeUndefined();
  });

  it("orders the shards missing and short by index", () => {
    const iteration = {
      status: "interrupted",
      plan: { evals: [1, 2], configurations: ["with_skill"], runs_per_configuration: 2 },
      shard: { index: 2, count: 3, plan_hash: "p" },
    } as IterationRecord & { shard: ShardInfo };
    const partial = partialOf([bare({ iteration, finished: { evalRuns: 0, triggerRuns: 0 } })], {
      problems: [],
      count: 3,
      missing: [3, 1],
    });
    expect(partial?.shards.map((s) => [s.index, s.state])).toEqual([
      [1, "missing"],
      [2, "interrupted"],
      [3, "missing"],
    ]);
    expect(partial?.missing_runs).toEqual({ eval: 4, trigger: 0 });
    expect(partial?.planned_runs).toEqual({ eval: 4, trigger: 0 });
  });
});

describe("sumPartials", () => {
  const partial = (missing: { eval: number; trigger: number }): MergePartial => ({
    count: 2,
    planned_runs: { eval: 10, trigger: 10 },
    missing_runs: missing,
    shards: [{ index: 2, state: "missing", planned_runs: missing, missing_runs: missing }],
  });

  it("adds every agent's planned runs and the missing runs of those short, naming each shard's agent", () => {
    expect(
      sumPartials([
        { agent: "a", planned: { eval: 4, trigger: 6 } },
        { agent: "b", planned: { eval: 10, trigger: 10 }, partial: partial({ eval: 5, trigger: 3 }) },
        { agent: "c", planned: { eval: 1, trigger: 2 }, partial: partial({ eval: 1, trigger: 2 }) },
      ]),
    ).toEqual({
      count: 2,
      planned_runs: { eval: 15, trigger: 18 },
      missing_runs: { eval: 6, trigger: 5 },
      shards: [
        {
          index: 2,
          state: "missing",
          planned_runs: { eval: 5, trigger: 3 },
          missing_runs: { eval: 5, trigger: 3 },
          agent: "b",
        },
        {
          index: 2,
          state: "missing",
          planned_runs: { eval: 1, trigger: 2 },
          missing_runs: { eval: 1, trigger: 2 },
          agent: "c",
        },
      ],
    });
  });

  it("is nothing when no agent lacks anything", () => {
    expect(sumPartials([{ agent: "a", planned: { eval: 1, trigger: 1 } }])).toBeUndefined();
    expect(sumPartials([])).toBeUndefined();
  });
});

describe("byShardIndex", () => {
  it("sorts by index and keeps the given order among equals", () => {
    const items = [
      { i: 2, n: "x" },
      { i: 1, n: "y" },
      { i: 2, n: "z" },
      { i: 1, n: "w" },
    ];
    expect(byShardIndex(items, (s) => s.i).map((s) => s.n)).toEqual(["y", "w", "x", "z"]);
    // The list given stays as it was.
    expect(items.map((s) => s.n)).toEqual(["x", "y", "z", "w"]);
  });
});

describe("withoutShard", () => {
  it("drops the shard and nothing else, leaving the record given as it was", () => {
    const record = { a: 1, shard: { index: 1 } };
    expect(withoutShard(record)).toEqual({ a: 1 });
    expect(record).toEqual({ a: 1, shard: { index: 1 } });
  });
});

describe("mergeTriggerResults", () => {
  const result = (more: Partial<TriggerQueryResult>): TriggerQueryResult => ({
    query: "q",
    should_trigger: false,
    trigger_rate: 0,
    triggers: 0,
    runs: 0,
    errors: 0,
    pass: null,
    ...more,
  });
  const results = (rs: TriggerQueryResult[], threshold?: number): TriggerResults =>
    ({
      skill_name: "s",
      description: "d",
      ...(threshold !== undefined ? { threshold } : {}),
      results: rs,
      summary: {},
    }) as TriggerResults;

  it("refuses to merge nothing", () => {
    expect(() => mergeTriggerResults([])).toThrow("no trigger results to merge");
  });

  it("passes a query that should not trigger below the threshold (0.5 when none is recorded), fails it at it", () => {
    const below = mergeTriggerResults([
      results([result({ runs: 2, triggers: 0 })]),
      results([result({ runs: 3, triggers: 2 })]),
    ]);
    expect(below.results[0]).toEqual(result({ runs: 5, triggers: 2, trigger_rate: 0.4, pass: true }));
    const at = mergeTriggerResults([results([result({ runs: 2, triggers: 1 })])]);
    expect(at.results[0]?.pass).toBe(false);
    const shouldAt = mergeTriggerResults([results([result({ should_trigger: true, runs: 2, triggers: 1 })])]);
    expect(shouldAt.results[0]?.pass).toBe(true);
    expect(below.summary).toMatchObject({ total: 1, passed: 1 });
  });

  it("has no rate and no verdict when every run failed, and no stolen_by when no run was taken", () => {
    const merged = mergeTriggerResults([
      results(
        [result({ runs: 2, errors: 2 }), result({ query: "r", runs: 1, triggers: 1, should_trigger: true })],
        0.5,
      ),
      results([result({ runs: 1, errors: 1 })], 0.5),
    ]);
    expect(merged.results).toEqual([
      result({ runs: 3, errors: 3, trigger_rate: null, pass: null }),
      result({ query: "r", should_trigger: true, runs: 1, triggers: 1, trigger_rate: 1, pass: true }),
    ]);
    expect(merged.results[0]).not.toHaveProperty("stolen_by");
  });
});

describe("checkShards", () => {
  it("refuses no folders at all", () => {
    expect(checkShards([])).toEqual({ problems: ["no shard folders given"], count: 0, missing: [] });
  });

  it("does not take a run listed twice in one folder for a run in two shards", () => {
    const iteration = {
      plan: { evals: [1], configurations: ["with_skill"], runs_per_configuration: 2 },
      shard: { index: 1, count: 1, plan_hash: "p" },
    } as IterationRecord & { shard: ShardInfo };
    expect(
      checkShards([bare({ iteration, evalRuns: ["eval-1/with_skill/run-1", "eval-1/with_skill/run-1"] })]),
    ).toEqual({ problems: [], count: 1, missing: [] });
  });

  it("tells a trigger run from an eval run of the same name", () => {
    const at = (index: number) => ({
      iteration: {
        plan: { evals: [1], configurations: ["with_skill"], runs_per_configuration: 2 },
        shard: { index, count: 2, plan_hash: "p" },
      } as IterationRecord & { shard: ShardInfo },
    });
    expect(
      checkShards([
        bare({ source: "a", ...at(1), evalRuns: ["query-1/run-1"] }),
        bare({ source: "b", ...at(2), triggerRuns: ["query-1/run-1"] }),
      ]).problems,
    ).toEqual([]);
  });
});
