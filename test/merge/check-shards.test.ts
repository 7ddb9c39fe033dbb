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
  return {
    source,
    dir: `/x/${source}`,
    iteration,
    evalRuns: runs,
    triggerRuns: [],
    finished: { evalRuns: runs.length, triggerRuns: 0 },
  };
}

describe("checkShards", () => {
  it("accepts one plan's shards, each once", () => {
    const check = checkShards([
      shard("a", { index: 1 }, ["eval-1/with_skill/run-1"]),
      shard("b", { index: 2 }, ["eval-1/with_skill/run-2"]),
    ]);
    expect(check).toEqual({ problems: [], count: 2, missing: [] });
  });

  it("says in words what differs between shards of two plans, each field on its line", () => {
    const check = checkShards([
      shard("a", { index: 1 }, []),
      shard("b", { index: 2, plan_hash: "plan-b" }, [], {
        skill_name: "todo-report",
        skill_hash: "skill-b",
        agent: { name: "codex" },
        plan: { evals: [1, 2], configurations: ["with_skill"], runs_per_configuration: 1 },
      }),
    ]);
    expect(check.problems).toEqual([
      [
        "a vs b:",
        "    skill: s vs todo-report",
        "    agent: claude-code vs codex",
        "    evals: 1 vs 1, 2",
        "    runs: 2 vs 1",
        "    skill hash (evals): skill-a vs skill-b",
        "    plan hash (evals): plan-a vs plan-b",
      ].join("\n"),
    ]);
  });

  it("explains a plan that differs only in its hashes", () => {
    const check = checkShards([
      shard("a", { index: 1 }, []),
      shard("b", { index: 2, plan_hash: "plan-b" }, []),
    ]);
    expect(check.problems).toHaveLength(1);
    expect(check.problems[0]).toContain("plan hash (evals): plan-a vs plan-b");
    expect(check.problems[0]).toContain("only hashes differ");
  });

  it("names no run as in two shards when the plans differ (their runs overlap by chance)", () => {
    const check = checkShards([
      shard("a", { index: 1 }, ["eval-1/with_skill/run-1"]),
      shard("b", { index: 2 }, ["eval-1/with_skill/run-1"], { skill_name: "other" }),
    ]);
    expect(check.problems).toEqual(["a vs b:\n    skill: s vs other"]);
  });

  it("names the shards in index order whatever order they are given in", () => {
    const two = shard("b", { index: 2 }, [], { skill_hash: "skill-b" });
    const one = shard("a", { index: 1 }, []);
    expect(checkShards([two, one]).problems).toEqual(checkShards([one, two]).problems);
    expect(checkShards([two, one]).problems[0]).toMatch(/^a vs b:/);
  });

  it("refuses a different n, a repeated shard and a run in two shards", () => {
    expect(
      checkShards([shard("a", { index: 1 }, []), shard("b", { index: 2, count: 3 }, [])]).problems,
    ).toEqual(["a vs b:\n    shard count n: 2 vs 3"]);
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

  describe("the trigger plans of shards that ran triggers", () => {
    const plan = (index: number, more: Partial<TriggerPlan> = {}) =>
      ({
        skill_name: "s",
        skill_hash: "skill-a",
        description: "d",
        queries: ["q"],
        runs_per_query: 2,
        with_skills: [],
        status: "complete",
        shard: { index, count: 2, plan_hash: "t1" },
        ...more,
      }) as TriggerPlan & { shard: ShardInfo };
    const triggerShard = (source: string, triggerPlan: TriggerPlan & { shard: ShardInfo }): ShardData => ({
      source,
      dir: `/${source}`,
      triggerPlan,
      evalRuns: [],
      triggerRuns: [`query-1/run-${triggerPlan.shard.index}`],
      finished: { evalRuns: 0, triggerRuns: 1 },
    });

    it("are one plan with the same hashes", () => {
      expect(checkShards([triggerShard("a", plan(1)), triggerShard("b", plan(2))]).problems).toEqual([]);
    });

    it("differ in their plan hash", () => {
      const b = plan(2, { shard: { index: 2, count: 2, plan_hash: "t2" } });
      expect(checkShards([triggerShard("a", plan(1)), triggerShard("b", b)]).problems).toEqual([
        "a vs b:\n    plan hash (triggers): t1 vs t2\n    (only hashes differ: the skill's files, or what the plan hash covers besides the above: the eval prompts, files and checks, the queries' should_trigger, --only, the contents of the baseline or of --with-skills)",
      ]);
    });

    // The trigger plan hash leaves the skill's body out: only the skill hash tells a changed skill apart.
    it("differ in the skill hash alone", () => {
      const b = plan(2, { skill_hash: "skill-b" });
      const problems = checkShards([triggerShard("a", plan(1)), triggerShard("b", b)]).problems;
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain("skill hash (triggers): skill-a vs skill-b");
    });

    it("differ in words: queries, description, runs", () => {
      const b = plan(2, { queries: ["q", "r"], description: "other", runs_per_query: 3 });
      expect(checkShards([triggerShard("a", plan(1)), triggerShard("b", b)]).problems).toEqual([
        'a vs b:\n    trigger queries: 1 vs 2\n    description: "d" vs "other"\n    trigger runs: 2 vs 3',
      ]);
    });
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
