import { describe, expect, it } from "vitest";
import type { IterationRecord, TriggerPlan } from "../../src/contracts/run-record.js";
import type { ShardInfo } from "../../src/contracts/shard.js";
import { checkShards, partialOf, type ShardData, shortfallOf } from "../../src/merge/index.js";
import { partialText } from "../../src/shard/index.js";

// A plan of 2 evals × 2 configurations × 3 runs (12 eval runs) and 13 queries × 2 runs (26 trigger runs), n = 2.
function shard(
  index: number,
  finished: { evalRuns: number; triggerRuns: number },
  status: { evals?: IterationRecord["status"]; triggers?: TriggerPlan["status"] } = {},
): ShardData {
  const info = { index, count: 2, plan_hash: "p" };
  return {
    source: `shard-${index}`,
    dir: `/x/shard-${index}/iteration-1`,
    iteration: {
      skill_name: "s",
      skill_path: "/s",
      skill_hash: "h",
      status: status.evals ?? "complete",
      started_at: "2026-01-01T00:00:00Z",
      plan: { evals: [1, 2], configurations: ["with_skill", "without_skill"], runs_per_configuration: 3 },
      shard: info,
    } as IterationRecord & { shard: ShardInfo },
    triggerPlan: {
      skill_name: "s",
      skill_hash: "h",
      description: "d",
      queries: Array.from({ length: 13 }, (_, i) => `q${i}`),
      runs_per_query: 2,
      with_skills: [],
      status: status.triggers ?? "complete",
      shard: { ...info, plan_hash: "t" },
    } as TriggerPlan & { shard: ShardInfo },
    evalRuns: [],
    triggerRuns: [],
    finished,
  };
}

describe("shortfallOf", () => {
  it("finds nothing missing in a shard that finished its share", () => {
    expect(shortfallOf(shard(1, { evalRuns: 6, triggerRuns: 13 }))).toBeUndefined();
  });

  it("names an interrupted shard and counts the runs of its share that did not finish", () => {
    expect(shortfallOf(shard(1, { evalRuns: 6, triggerRuns: 9 }, { triggers: "interrupted" }))).toEqual({
      index: 1,
      source: "shard-1",
      state: "interrupted",
      planned_runs: { eval: 6, trigger: 13 },
      missing_runs: { eval: 0, trigger: 4 },
    });
  });

  it("calls a shard interrupted even when every run finished (its results were not all written)", () => {
    expect(shortfallOf(shard(2, { evalRuns: 6, triggerRuns: 13 }, { evals: "interrupted" }))?.state).toBe(
      "interrupted",
    );
  });

  it("calls a shard still `running` one that never finished, and one that says complete but lacks runs incomplete", () => {
    expect(shortfallOf(shard(1, { evalRuns: 6, triggerRuns: 13 }, { triggers: "running" }))?.state).toBe(
      "running",
    );
    expect(shortfallOf(shard(1, { evalRuns: 4, triggerRuns: 13 }))).toMatchObject({
      state: "incomplete",
      missing_runs: { eval: 2, trigger: 0 },
    });
    // More trigger runs lacking than eval runs is still lacking.
    expect(shortfallOf(shard(2, { evalRuns: 5, triggerRuns: 10 }))).toEqual({
      index: 2,
      source: "shard-2",
      state: "incomplete",
      planned_runs: { eval: 6, trigger: 13 },
      missing_runs: { eval: 1, trigger: 3 },
    });
  });
});

describe("partialOf", () => {
  it("adds a shard no folder holds, its whole share missing, and says it all in one sentence", () => {
    const one = shard(1, { evalRuns: 6, triggerRuns: 9 }, { triggers: "interrupted" });
    const partial = partialOf([one], checkShards([one]));
    expect(partial).toMatchObject({
      count: 2,
      planned_runs: { eval: 12, trigger: 26 },
      missing_runs: { eval: 6, trigger: 17 },
    });
    expect(partial?.shards.map((s) => [s.index, s.state])).toEqual([
      [1, "interrupted"],
      [2, "missing"],
    ]);
    expect(partialText(partial!)).toBe(
      "partial merge: 6 of 12 eval runs and 17 of 26 trigger runs missing (shard 1/2 interrupted: 4 of 13 trigger runs missing; shard 2/2 not given: 6 of 6 eval runs and 13 of 13 trigger runs missing); the figures cover only the runs that finished",
    );
  });

  it("is nothing when every shard finished its share", () => {
    const shards = [shard(1, { evalRuns: 6, triggerRuns: 13 }), shard(2, { evalRuns: 6, triggerRuns: 13 })];
    expect(partialOf(shards, checkShards(shards))).toBeUndefined();
  });
});
