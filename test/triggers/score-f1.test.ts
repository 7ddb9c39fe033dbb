import { describe, expect, it } from "vitest";
import { scoreQuery, summarize, type TriggerRunResult } from "../../src/triggers/score.js";

const hit = (stolenBy: string[] = []): TriggerRunResult => ({ queryIndex: 0, triggered: true, stolenBy });
const miss = (stolenBy: string[] = []): TriggerRunResult => ({ queryIndex: 0, triggered: false, stolenBy });
const errored = (stolenBy: string[] = []): TriggerRunResult => ({
  queryIndex: 0,
  triggered: false,
  stolenBy,
  error: "timeout",
});

// TP 3, FN 3 (the errored run is neither), FP 1, TN 4: precision 3/4, recall 3/6, so the two differ.
const results = [
  scoreQuery(
    { query: "draft the release notes", should_trigger: true },
    [hit(), hit(), hit(), miss(["other"]), miss(), miss(), errored(["other"])],
    0.5,
  ),
  scoreQuery(
    { query: "fix the parser test", should_trigger: false },
    [hit(), miss(), miss(), miss(), miss()],
    0.5,
  ),
];

describe("trigger scores where precision and recall differ", () => {
  it("gives precision TP/(TP+FP) and recall TP/(TP+FN), not one for the other", () => {
    const summary = summarize(results);
    expect(summary.precision).toBeCloseTo(0.75, 12);
    expect(summary.recall).toBeCloseTo(0.5, 12);
  });

  it("gives F1 as their harmonic mean, below their plain mean", () => {
    // 2 · 0.75 · 0.5 / 1.25 = 0.6; the plain mean would be 0.625.
    expect(summarize(results).f1).toBeCloseTo(0.6, 12);
  });

  it("leaves an errored run out of the confusion counts and the accuracy", () => {
    // (TP 3 + TN 4) / 11 scored runs; the errored run would make it 7 / 12.
    expect(summarize(results).accuracy).toBeCloseTo(7 / 11, 12);
    expect(results[0]).toMatchObject({ runs: 7, errors: 1, triggers: 3, trigger_rate: 0.5 });
  });

  it("counts who took the query only over scored runs", () => {
    expect(results[0]?.stolen_by).toEqual({ other: 1 });
    const onlyErrored = scoreQuery({ query: "q", should_trigger: true }, [hit(), errored(["other"])], 0.5);
    expect(onlyErrored).not.toHaveProperty("stolen_by");
  });
});

describe("a summary where nothing scored agrees", () => {
  it("gives no F1 when precision and recall are both 0, and counts passed and failed apart", () => {
    // TP 0, FP 1, FN 2: precision 0, recall 0.
    const none = [
      scoreQuery({ query: "a", should_trigger: true }, [miss(), miss()], 0.5),
      scoreQuery({ query: "b", should_trigger: false }, [hit()], 0.5),
      scoreQuery({ query: "c", should_trigger: false }, [miss()], 0.5),
    ];
    const summary = summarize(none);
    expect(summary).toMatchObject({
      precision: 0,
      recall: 0,
      f1: null,
      total: 3,
      passed: 1,
      failed: 2,
      errors: 0,
    });
    expect(summary.accuracy).toBeCloseTo(1 / 4, 12);
  });
});
