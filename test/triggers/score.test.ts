import { describe, expect, it } from "vitest";
import { TriggerResults } from "../../src/contracts/trigger-results.js";
import { scoreQuery, summarize, type TriggerRunResult } from "../../src/triggers/score.js";

const run = (triggered: boolean, extra: Partial<TriggerRunResult> = {}): TriggerRunResult => ({
  queryIndex: 0,
  triggered,
  stolenBy: [],
  ...extra,
});

describe("scoring trigger queries", () => {
  it("passes a should-trigger query at or above the threshold and fails it below", () => {
    const q = { query: "q", should_trigger: true };
    expect(scoreQuery(q, [run(true), run(false)], 0.5)).toMatchObject({
      trigger_rate: 0.5,
      triggers: 1,
      runs: 2,
      pass: true,
    });
    expect(scoreQuery(q, [run(true), run(false), run(false)], 0.5).pass).toBe(false);
  });

  it("passes a should-not-trigger query only below the threshold", () => {
    const q = { query: "q", should_trigger: false };
    expect(scoreQuery(q, [run(true), run(false)], 0.5).pass).toBe(false);
    expect(scoreQuery(q, [run(true), run(false), run(false)], 0.5).pass).toBe(true);
  });

  it("leaves errored runs out of the rate and gives no verdict when all errored", () => {
    const q = { query: "q", should_trigger: true };
    const mixed = scoreQuery(q, [run(false, { error: "timeout" }), run(true)], 0.5);
    expect(mixed).toMatchObject({ trigger_rate: 1, triggers: 1, runs: 2, errors: 1, pass: true });
    const all = scoreQuery(q, [run(false, { error: "x" }), run(false, { error: "y" })], 0.5);
    expect(all).toMatchObject({ trigger_rate: null, errors: 2, pass: null });
  });

  it("counts the skills that took the query", () => {
    const q = { query: "q", should_trigger: true };
    const r = scoreQuery(
      q,
      [run(false, { stolenBy: ["a"] }), run(false, { stolenBy: ["a", "b"] }), run(true)],
      0.5,
    );
    expect(r.stolen_by).toEqual({ a: 2, b: 1 });
    expect(scoreQuery(q, [run(true)], 0.5)).not.toHaveProperty("stolen_by");
  });

  it("computes precision, recall, F1 and accuracy over scored runs", () => {
    const results = [
      scoreQuery({ query: "a", should_trigger: true }, [run(true), run(true), run(false)], 0.5),
      scoreQuery(
        { query: "b", should_trigger: false },
        [run(true), run(false), run(false, { error: "x" })],
        0.5,
      ),
      scoreQuery({ query: "c", should_trigger: false }, [run(false, { error: "x" })], 0.5),
    ];
    const summary = summarize(results);
    // TP 2, FN 1, FP 1, TN 1
    expect(summary).toMatchObject({ total: 3, passed: 1, failed: 1, errors: 1 });
    expect(summary.precision).toBeCloseTo(2 / 3);
    expect(summary.recall).toBeCloseTo(2 / 3);
    expect(summary.f1).toBeCloseTo(2 / 3);
    expect(summary.accuracy).toBeCloseTo(3 / 5);
    expect(() => TriggerResults.parse({ skill_name: "s", description: "d", results, summary })).not.toThrow();
  });

  it("leaves undefined metrics as null", () => {
    const summary = summarize([scoreQuery({ query: "a", should_trigger: false }, [run(false)], 0.5)]);
    expect(summary).toMatchObject({ precision: null, recall: null, f1: null, accuracy: 1 });
  });
});
