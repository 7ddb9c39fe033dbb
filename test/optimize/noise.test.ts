import { describe, expect, it } from "vitest";
import type { OptimizeSubsetScore } from "../../src/contracts/optimize-results.js";
import type { TriggerQueryResult } from "../../src/contracts/trigger-results.js";
import { subsetScore, testGain } from "../../src/optimize/index.js";

// The test gain's bootstrap at its edges: a loss, a side without scored runs, a small and reproducible resample.
function query(
  n: number,
  shouldTrigger: boolean,
  triggers: number,
  runs = 3,
  errors = 0,
): TriggerQueryResult {
  const scored = runs - errors;
  const rate = scored === 0 ? null : triggers / scored;
  return {
    query: `query ${n}`,
    should_trigger: shouldTrigger,
    trigger_rate: rate,
    triggers,
    runs,
    errors,
    pass: rate === null ? null : shouldTrigger ? rate >= 0.5 : rate < 0.5,
  };
}

const side = (results: TriggerQueryResult[]): OptimizeSubsetScore =>
  subsetScore(
    results,
    results.map((_, i) => i),
  );

const good = side([
  ...Array.from({ length: 10 }, (_, i) => query(i, true, 3)),
  ...Array.from({ length: 10 }, (_, i) => query(10 + i, false, 0)),
]);
const bad = side([
  ...Array.from({ length: 10 }, (_, i) => query(i, true, 0)),
  ...Array.from({ length: 10 }, (_, i) => query(10 + i, false, 0)),
]);

describe("testGain", () => {
  it("calls a large, consistent loss beyond noise, with a minus sign", () => {
    expect(testGain(good, bad)).toEqual({
      original: 1,
      best: 0.5,
      gain: -0.5,
      confidence: 0.95,
      ci_low: -0.7,
      ci_high: -0.3,
      beyond_noise: true,
      note: "-0.50 on test, beyond noise (95% interval -0.70..-0.30 over 20 test queries)",
    });
  });

  it("is null when a side has no score", () => {
    const errored = side([query(0, true, 0, 2, 2)]);
    expect(errored.score).toBeNull();
    expect(testGain(errored, good)).toBeNull();
    expect(testGain(good, errored)).toBeNull();
  });

  it("leaves out a query without scored runs on either side, and is null when none is left", () => {
    const withErrors = side([query(0, true, 0, 2, 2), query(1, true, 3)]);
    const best = side([query(0, true, 3), query(1, true, 3)]);
    expect(testGain(withErrors, best)?.note).toMatch(/ over 1 test queries\)$/);
    const onlyErrors = { ...withErrors, results: [query(0, true, 0, 2, 2)] };
    expect(testGain(onlyErrors, best)).toBeNull();
    // A best side shorter than the original's counts the missing queries as unscored.
    expect(testGain(best, { ...best, results: [] })).toBeNull();
  });

  it("takes the interval's ends from the sorted resamples, at the given confidence", () => {
    const mixed = side([query(0, true, 1), query(1, true, 2), query(2, false, 1), query(3, true, 0)]);
    const better = side([query(0, true, 3), query(1, true, 2), query(2, false, 0), query(3, true, 1)]);
    const options = { seed: 7, resamples: 6, confidence: 0.6 };
    // Six resamples at 60%: the ends are the second and the fifth of them, sorted.
    expect(testGain(mixed, better, options)).toEqual({
      original: 5 / 12,
      best: 0.75,
      gain: 0.3333,
      confidence: 0.6,
      ci_low: 0.4167,
      ci_high: 0.5,
      beyond_noise: true,
      note: "+0.33 on test, beyond noise (60% interval +0.42..+0.50 over 4 test queries)",
    });
  });

  it("says there is no gain, with a plus sign on zero", () => {
    expect(testGain(good, good)?.note).toBe(
      "+0.00 on test: no gain over the original (95% interval +0.00..+0.00 over 20 test queries)",
    );
  });
});

describe("no gain", () => {
  it("is a plain zero when the scores differ by a rounding error, and never beyond noise, whatever the runs", () => {
    // The runs favour the best description, but its score is the original's.
    const result = testGain({ ...bad, score: 0.1 + 0.2 }, { ...good, score: 0.3 })!;
    expect(Object.is(result.gain, 0)).toBe(true);
    expect(result.ci_low).toBeGreaterThan(0);
    expect(result.beyond_noise).toBe(false);
    expect(result.note).toMatch(/^\+0\.00 on test: no gain over the original/);
  });
});

describe("a loss resting on one flaky query", () => {
  it("is within noise: some resamples of it show no loss at all", () => {
    const flaky = side([
      query(0, true, 2),
      ...Array.from({ length: 9 }, (_, i) => query(1 + i, true, 3)),
      ...Array.from({ length: 10 }, (_, i) => query(10 + i, false, 0)),
    ]);
    const loss = testGain(good, flaky)!;
    expect(loss.gain).toBeCloseTo(-1 / 60, 3);
    expect(loss.ci_high).toBe(0);
    expect(loss.beyond_noise).toBe(false);
    expect(loss.note).toContain("-0.02 on test, within noise");
  });
});
