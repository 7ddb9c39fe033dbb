import { describe, expect, it } from "vitest";
import type { TriggerQueryResult, TriggerResults } from "../../src/contracts/trigger-results.js";
import { mergeTriggerResults } from "../../src/merge/merge-triggers.js";
import { summarize } from "../../src/triggers/score.js";

// One shard's result for the single query "make a card" (should trigger), at the plan's --threshold 0.75.
function shard(part: {
  runs: number;
  errors: number;
  triggers: number;
  stolen_by: Record<string, number>;
}): TriggerResults {
  const scored = part.runs - part.errors;
  const rate = scored === 0 ? null : part.triggers / scored;
  const result: TriggerQueryResult = {
    query: "make a card",
    should_trigger: true,
    trigger_rate: rate,
    pass: rate === null ? null : rate >= 0.75,
    ...part,
  };
  return {
    skill_name: "card",
    description: "d",
    threshold: 0.75,
    results: [result],
    summary: summarize([result]),
  };
}

describe("merging the trigger results of shards", () => {
  const merged = mergeTriggerResults([
    shard({ runs: 3, errors: 1, triggers: 1, stolen_by: { other: 1 } }),
    shard({ runs: 3, errors: 0, triggers: 2, stolen_by: { other: 1, third: 1 } }),
  ]);

  it("adds the runs up and scores the rate over the scored runs at the plan's own threshold", () => {
    // 3 triggers of 5 scored runs: 0.6 passes the default 0.5 but not the plan's 0.75.
    expect(merged.results[0]).toMatchObject({
      runs: 6,
      errors: 1,
      triggers: 3,
      trigger_rate: 0.6,
      pass: false,
    });
    expect(merged.threshold).toBe(0.75);
  });

  it("adds up who took the query in every shard", () => {
    expect(merged.results[0]?.stolen_by).toEqual({ other: 2, third: 1 });
  });
});
