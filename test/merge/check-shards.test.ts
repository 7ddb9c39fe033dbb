import { describe, expect, it } from "vitest";
import type { IterationRecord, TriggerPlan } from "../../src/contracts/run-record.js";
import type { ShardInfo } from "../../src/contracts/shard.js";
import type { TriggerResults } from "../../src/contracts/trigger-results.js";
import { checkShards, mergeTriggerResults, type ShardData } from "../../src/merge/index.js";
import { scoreQuery, summarize } from "../../src/triggers/score.js";

function shard(
  source: string,
  info: Partial<ShardInfo>,
  runs: string[],
  more: Partial<IterationRecord> = {},
): ShardData {
  const iteration = {
    skill_name: "s",
    skill_path: "/s",
    skill_hash: "skill-a",
    status: "complete",
    started_at: "2026-01-01T00:00:00Z",
    agent: { name: "claude-code" },
    plan: { evals: [1], configurations: ["with_skill"], runs_per_configuration: 2 },
    shard: { index: 1, count: 2, plan_hash: "plan-a", ...info },
    ...more,
  } as IterationRecord & { shard: ShardInfo };
  return { source, dir: `/x/${source}`, iteration, evalRuns: runs, triggerRuns: [] };
}

describe("checkShards", () => {
  it("accepts one plan's shards, each once", () => {
    const check = checkShards([
      shard("a", { index: 1 }, ["eval-1/with_skill/run-1"]),
      shard("b", { index: 2 }, ["eval-1/with_skill/run-2"]),
    ]);
    expect(check).toEqual({ problems: [], count: 2, missing: [] });
  });

  it("names the shard and the field that differs", () => {
    const check = checkShards([
      shard("a", { index: 1 }, []),
      shard("b", { index: 2, plan_hash: "plan-b" }, [], { skill_hash: "skill-b", agent: { name: "codex" } }),
    ]);
    expect(check.problems).toEqual([
      'b: evals: iteration.json plan_hash is "plan-b", but a has "plan-a"',
      'b: evals: iteration.json skill_hash is "skill-b", but a has "skill-a"',
      'b: evals: iteration.json agent is "codex", but a has "claude-code"',
    ]);
  });

  it("refuses a different n, a repeated shard and a run in two shards", () => {
    expect(
      checkShards([shard("a", { index: 1 }, []), shard("b", { index: 2, count: 3 }, [])]).problems,
    ).toEqual(["b: the shard count n is 3, but a has 2"]);
    expect(checkShards([shard("a", { index: 1 }, []), shard("b", { index: 1 }, [])]).problems).toEqual([
      "b: shard 1/2 is given twice (also a)",
    ]);
    expect(
      checkShards([
        shard("a", { index: 1 }, ["eval-1/with_skill/run-1"]),
        shard("b", { index: 2 }, ["eval-1/with_skill/run-1"]),
      ]).problems,
    ).toEqual(["b: run eval-1/with_skill/run-1 is also in a"]);
  });

  it("says which shards are missing", () => {
    const check = checkShards([shard("a", { index: 2, count: 4 }, [])]);
    expect(check).toEqual({ problems: [], count: 4, missing: [1, 3, 4] });
  });

  it("compares the trigger plan of shards that ran triggers", () => {
    const plan = (hash: string) =>
      ({
        skill_name: "s",
        skill_hash: "skill-a",
        description: "d",
        queries: ["q"],
        runs_per_query: 2,
        with_skills: [],
        status: "complete",
        shard: { index: 1, count: 2, plan_hash: hash },
      }) as TriggerPlan & { shard: ShardInfo };
    const a: ShardData = {
      source: "a",
      dir: "/a",
      triggerPlan: plan("t1"),
      evalRuns: [],
      triggerRuns: ["query-1/run-1"],
    };
    const b: ShardData = {
      source: "b",
      dir: "/b",
      triggerPlan: { ...plan("t2"), shard: { index: 2, count: 2, plan_hash: "t2" } },
      evalRuns: [],
      triggerRuns: ["query-1/run-2"],
    };
    expect(checkShards([a, b]).problems).toEqual([
      'b: triggers: plan.json plan_hash is "t2", but a has "t1"',
    ]);
  });
});

describe("mergeTriggerResults", () => {
  const queries = [
    { query: "make a csv summary", should_trigger: true },
    { query: "what time is it", should_trigger: false },
  ];
  const runs = [
    { queryIndex: 0, triggered: true, stolenBy: [] },
    { queryIndex: 0, triggered: false, stolenBy: ["other"] },
    { queryIndex: 0, triggered: true, stolenBy: [] },
    { queryIndex: 1, triggered: false, stolenBy: [] },
    { queryIndex: 1, triggered: true, stolenBy: [] },
    { queryIndex: 1, triggered: false, stolenBy: [], error: "timeout" },
  ];
  const resultsOf = (subset: typeof runs): TriggerResults => {
    const results = queries.map((q, i) =>
      scoreQuery(
        q,
        subset.filter((r) => r.queryIndex === i),
        0.5,
      ),
    );
    return { skill_name: "s", description: "d", threshold: 0.5, results, summary: summarize(results) };
  };

  it("equals scoring every run at once, however the runs were split", () => {
    const whole = resultsOf(runs);
    for (const split of [[0, 2, 4], [1], [0, 1, 2, 3, 4, 5], []]) {
      const one = runs.filter((_, i) => split.includes(i));
      const two = runs.filter((_, i) => !split.includes(i));
      const merged = mergeTriggerResults([resultsOf(one), resultsOf(two)]);
      expect(merged.results).toEqual(whole.results);
      expect(merged.summary).toEqual(whole.summary);
    }
  });
});
