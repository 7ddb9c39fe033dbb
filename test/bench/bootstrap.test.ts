import { describe, expect, it } from "vitest";
import { pairedBootstrap } from "../../src/bench/statistics.js";

describe("the paired bootstrap over evals", () => {
  it("resamples the evals: a skill that helps two evals and hurts a third, every run, is not distinguishable", () => {
    // Within each eval the runs agree, so only drawing evals with replacement can widen the interval.
    const d = pairedBootstrap([
      [0.5, 0.5, 0.5],
      [0.5, 0.5, 0.5],
      [-0.5, -0.5, -0.5],
    ])!;
    expect(d.estimate).toBeCloseTo(1 / 6, 4);
    expect(d.ci_low).toBe(-0.5);
    expect(d.ci_high).toBe(0.5);
    expect(d.distinguishable).toBe(false);
  });

  it("reaches from 0 to 1 for two evals of one pair each, 0 and 1", () => {
    // Drawing two evals: both 0 (1/4), one of each (1/2), both 1 (1/4).
    expect(pairedBootstrap([[0], [1]])).toMatchObject({
      estimate: 0.5,
      ci_low: 0,
      ci_high: 1,
      distinguishable: false,
    });
  });

  it("gives the negated interval for the negated differences: both ends are the same percentile", () => {
    // The draws depend on the seed and the group sizes, not the values, so negating every difference negates every
    // resample mean; the upper end must then be minus the lower end of the negated data. 10 of 200 in each tail.
    const groups = [
      [0.13, -0.41, 0.77, 0.05],
      [-0.29, 0.61, 0.33],
      [0.92, -0.07, 0.18, 0.44, -0.63],
      [0.27, 0.09],
    ];
    const negated = groups.map((g) => g.map((x) => -x));
    for (const seed of [1, 2, 3, 4, 5]) {
      const options = { seed, resamples: 200, confidence: 0.9 };
      const d = pairedBootstrap(groups, options)!;
      const n = pairedBootstrap(negated, options)!;
      // Within a rounding of the fourth decimal (a half rounds up on both sides).
      expect(d.ci_high, `seed ${seed}`).toBeCloseTo(-n.ci_low, 3);
      expect(d.ci_low, `seed ${seed}`).toBeCloseTo(-n.ci_high, 3);
      expect(d.ci_low).toBeLessThan(d.ci_high);
    }
  });
});
