import { describe, expect, it } from "vitest";
import {
  mean,
  median,
  mulberry32,
  pairedBootstrap,
  percentileBounds,
  sampleStddev,
} from "../../src/bench/statistics.js";

describe("the statistics on their edges", () => {
  it("has no mean or median of nothing, and the spread of two values", () => {
    expect(mean([])).toBeNaN();
    expect(median([])).toBeNaN();
    expect(median([4])).toBe(4);
    // 0 and 1: mean 0.5, squared deviations 0.25 + 0.25 over 1.
    expect(sampleStddev([0, 1])).toBeCloseTo(Math.sqrt(0.5), 12);
  });
});

describe("mulberry32, number by number", () => {
  it("gives the published sequence of seed 1, and reads a seed as an unsigned 32-bit number", () => {
    const one = mulberry32(1);
    expect([one(), one(), one(), one()]).toEqual([
      0.6270739405881613, 0.002735721180215478, 0.5274470399599522, 0.9810509674716741,
    ]);
    const wrapped = mulberry32(2 ** 32 + 1);
    expect(wrapped()).toBe(0.6270739405881613);
    const minusOne = mulberry32(-1);
    expect([minusOne(), minusOne()]).toEqual([0.8964226141106337, 0.189478256739676]);
  });
});

describe("percentileBounds", () => {
  const shuffled = (n: number) => Float64Array.from({ length: n }, (_, i) => (i * 7) % n);

  it("leaves the same count out of each tail, after sorting", () => {
    // 10 values, 80%: one left out at each end.
    expect(percentileBounds(Float64Array.from([50, 10, 40, 20, 30, 60, 70, 80, 90, 100]), 0.8)).toEqual({
      low: 20,
      high: 90,
    });
    // 200 values (0 … 199), 95%: 5 out at each end, although (1 − 0.95) / 2 · 200 is 4.999… in floating point.
    expect(percentileBounds(shuffled(200), 0.95)).toEqual({ low: 5, high: 194 });
    // 90%: 10 out at each end, although 0.05 · 200 is 9.999….
    expect(percentileBounds(shuffled(200), 0.9)).toEqual({ low: 10, high: 189 });
    // 90% of 10: half a value in each tail, rounded toward the ends.
    expect(percentileBounds(shuffled(10), 0.9)).toEqual({ low: 0, high: 9 });
  });

  it("stays within the values for a confidence of 1 or more", () => {
    expect(percentileBounds(Float64Array.from([5, 1, 4, 2, 3]), 1)).toEqual({ low: 1, high: 5 });
    expect(percentileBounds(Float64Array.from([5, 1, 4, 2, 3]), 1.5)).toEqual({ low: 1, high: 5 });
  });
});

describe("pairedBootstrap by hand", () => {
  it("draws evals, then pairs within each drawn eval, from the seeded sequence", () => {
    // Seed 1 draws 0.627, 0.003, 0.527, 0.981, 0.968, 0.281, 0.613, 0.721, 0.426, 0.995, 0.455, 0.489.
    // Resample 1: eval #1 ([0, 1]) with pairs 0 and 1 → 0.5; eval #1 again with pairs 1 and 0 → 0.5: mean 0.5.
    // Resample 2: eval #1 with pairs 1 and 0 → 0.5; eval #1 with pairs 0 and 0 → 0: mean 0.25.
    expect(pairedBootstrap([[1], [0, 1]], { seed: 1, resamples: 2, confidence: 0.5 })).toEqual({
      estimate: 0.75,
      ci_low: 0.25,
      ci_high: 0.5,
      confidence: 0.5,
      distinguishable: true,
      pairs: 3,
    });
    // The same draws pick eval #1 ([1]) every time: both resample means are 1.
    expect(pairedBootstrap([[0, 1], [1]], { seed: 1, resamples: 2, confidence: 0.5 })).toMatchObject({
      estimate: 0.75,
      ci_low: 1,
      ci_high: 1,
    });
  });

  it("skips empty groups, weighing only evals that have pairs", () => {
    expect(pairedBootstrap([[1, 1], []], { seed: 1, resamples: 50, confidence: 0.95 })).toEqual({
      estimate: 1,
      ci_low: 1,
      ci_high: 1,
      confidence: 0.95,
      distinguishable: true,
      pairs: 2,
    });
  });

  it("calls an interval that ends on zero not distinguishable, on either side", () => {
    const below = pairedBootstrap([[0, -1]], { seed: 1, resamples: 200, confidence: 0.95 })!;
    expect([below.ci_low, below.ci_high, below.distinguishable]).toEqual([-1, 0, false]);
    const above = pairedBootstrap([[0, 1]], { seed: 1, resamples: 200, confidence: 0.95 })!;
    expect([above.ci_low, above.ci_high, above.distinguishable]).toEqual([0, 1, false]);
  });

  it("never writes -0 for a difference that rounds to zero", () => {
    const d = pairedBootstrap([[-0.00001, 0.00001]], { seed: 1, resamples: 50, confidence: 0.95 })!;
    expect(d.estimate).toBe(0);
    expect(d.ci_low).toBe(0);
    expect(d.ci_high).toBe(0);
  });

  it("rounds to four decimals", () => {
    const d = pairedBootstrap([[1 / 3, 1 / 3, 1 / 3]], { seed: 1, resamples: 50, confidence: 0.95 })!;
    expect([d.estimate, d.ci_low, d.ci_high]).toEqual([0.3333, 0.3333, 0.3333]);
  });
});
