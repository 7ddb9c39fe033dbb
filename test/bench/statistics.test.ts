import { describe, expect, it } from "vitest";
import {
  mean,
  median,
  mulberry32,
  pairedBootstrap,
  sampleStddev,
  summarize,
} from "../../src/bench/statistics.js";

describe("summary statistics", () => {
  it("computes mean, sample stddev (n − 1), min and max by hand", () => {
    // mean 5; squared deviations 9+1+1+1+0+0+4+16 = 32; 32 / 7
    const values = [2, 4, 4, 4, 5, 5, 7, 9];
    expect(mean(values)).toBe(5);
    expect(sampleStddev(values)).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(summarize(values)).toEqual({ mean: 5, stddev: sampleStddev(values), min: 2, max: 9 });
    // pass rates 1, 0.5, 0: mean 0.5, deviations 0.25 + 0 + 0.25 over 2 → 0.25 → stddev 0.5
    expect(sampleStddev([1, 0.5, 0])).toBeCloseTo(0.5, 12);
  });

  it("gives stddev 0 for fewer than two values and nothing for no values", () => {
    expect(sampleStddev([0.7])).toBe(0);
    expect(sampleStddev([])).toBe(0);
    expect(summarize([])).toBeUndefined();
    expect(summarize([3])).toEqual({ mean: 3, stddev: 0, min: 3, max: 3 });
  });

  it("takes the median of odd and even counts, whatever the order", () => {
    expect(median([9, 1, 5])).toBe(5);
    expect(median([10, 1, 3, 4])).toBe(3.5);
  });
});

describe("mulberry32", () => {
  it("repeats its sequence for the same seed and differs for another", () => {
    const a = mulberry32(1);
    const b = mulberry32(1);
    const c = mulberry32(2);
    const first = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(first);
    expect(Array.from({ length: 5 }, c)).not.toEqual(first);
    for (const x of Array.from({ length: 1000 }, mulberry32(7))) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });
});

describe("paired bootstrap", () => {
  it("gives [0.5, 0.5] when every pair differs by exactly +0.5, and calls it distinguishable", () => {
    const d = pairedBootstrap([
      [0.5, 0.5, 0.5],
      [0.5, 0.5],
    ]);
    expect(d).toEqual({
      estimate: 0.5,
      ci_low: 0.5,
      ci_high: 0.5,
      confidence: 0.95,
      distinguishable: true,
      pairs: 5,
    });
  });

  it("contains 0 when the pairs are symmetric ±0.5, and is not distinguishable", () => {
    const d = pairedBootstrap([
      [0.5, -0.5, 0.5, -0.5],
      [-0.5, 0.5, -0.5, 0.5],
    ])!;
    expect(d.estimate).toBe(0);
    expect(d.ci_low).toBeLessThan(0);
    expect(d.ci_high).toBeGreaterThan(0);
    expect(d.distinguishable).toBe(false);
  });

  it("reaches from 0 to 1 for the two pairs 0 and 1 (resample means 0, 0.5, 1 with 1/4, 1/2, 1/4)", () => {
    expect(pairedBootstrap([[0, 1]])).toMatchObject({
      estimate: 0.5,
      ci_low: 0,
      ci_high: 1,
      distinguishable: false,
    });
  });

  it("keeps run-to-run noise when there is a single eval (no zero-width interval)", () => {
    const d = pairedBootstrap([[1, 0, 1, 0, 1, 1]])!;
    expect(d.ci_low).toBeLessThan(d.estimate);
    expect(d.ci_high).toBeGreaterThan(d.estimate);
  });

  it("weighs evals equally: the estimate is the mean of the evals' mean differences", () => {
    // eval means 1 and 0 → 0.5, although four of the five pairs are 0
    expect(pairedBootstrap([[1], [0, 0, 0, 0]])!.estimate).toBe(0.5);
  });

  it("is reproducible with the same seed and moves with another", () => {
    const groups = [
      [0.25, 0.5, 0, 0.75],
      [0.1, -0.2, 0.3],
      [0.6, 0.4],
    ];
    const once = pairedBootstrap(groups, { seed: 1, resamples: 10_000, confidence: 0.95 });
    expect(pairedBootstrap(groups, { seed: 1, resamples: 10_000, confidence: 0.95 })).toEqual(once);
    const other = pairedBootstrap(groups, { seed: 99, resamples: 10_000, confidence: 0.95 })!;
    expect([other.ci_low, other.ci_high]).not.toEqual([once!.ci_low, once!.ci_high]);
    expect(once!.ci_low).toBeLessThanOrEqual(once!.estimate);
    expect(once!.estimate).toBeLessThanOrEqual(once!.ci_high);
  });

  it("draws no interval from fewer than two pairs", () => {
    expect(pairedBootstrap([])).toBeNull();
    expect(pairedBootstrap([[0.5], []])).toBeNull();
  });
});
