import { describe, expect, it } from "vitest";
import { defaultBootstrap } from "../../src/bench/statistics.js";
import { changeOf, queryChange } from "../../src/diff/change.js";
import { compareEvals } from "../../src/diff/compare-evals.js";
import { twoSampleBootstrap } from "../../src/diff/two-sample.js";

const options = { ...defaultBootstrap, resamples: 2000 };

describe("twoSampleBootstrap", () => {
  it("gives zero, exactly, for two identical iterations", () => {
    expect(twoSampleBootstrap([{ a: [1, 1, 1], b: [1, 1, 1] }], options)).toEqual({
      estimate: 0,
      ci_low: 0,
      ci_high: 0,
      confidence: 0.95,
    });
  });

  it("is B minus A, not A minus B", () => {
    const d = twoSampleBootstrap([{ a: [1, 1, 1], b: [0, 0, 0] }], options);
    expect(d).toMatchObject({ estimate: -1, ci_low: -1, ci_high: -1 });
  });

  it("widens with run-to-run noise and keeps the estimate the mean difference", () => {
    const d = twoSampleBootstrap([{ a: [0, 1, 0, 1], b: [1, 1, 1, 0] }], options)!;
    expect(d.estimate).toBe(0.25);
    expect(d.ci_low).toBeLessThan(0);
    expect(d.ci_high).toBeGreaterThan(0.25);
    // Every resampled difference is a difference of two means of four 0/1 values: multiples of 0.25 in [-1, 1].
    expect(d.ci_low).toBeGreaterThanOrEqual(-0.75);
    expect(d.ci_high).toBeLessThanOrEqual(1);
  });

  it("weighs evals equally, whatever their run counts", () => {
    const d = twoSampleBootstrap(
      [
        { a: [0, 0], b: [1, 1] },
        { a: [1, 1, 1, 1, 1, 1], b: [1, 1, 1, 1, 1, 1] },
      ],
      options,
    )!;
    expect(d.estimate).toBe(0.5);
  });

  it("draws no interval from one run on a side", () => {
    expect(twoSampleBootstrap([{ a: [1], b: [0, 0] }], options)).toBeNull();
    expect(twoSampleBootstrap([{ a: [1, 1], b: [0] }], options)).toBeNull();
    expect(twoSampleBootstrap([], options)).toBeNull();
    // One eval with a single run on a side is enough, however many runs the others have.
    expect(
      twoSampleBootstrap(
        [
          { a: [1, 0, 1], b: [0, 0, 1] },
          { a: [1], b: [0, 1] },
        ],
        options,
      ),
    ).toBeNull();
  });

  it("gives the same interval for the same seed", () => {
    const groups = [{ a: [0, 1, 1], b: [1, 1, 0, 1] }];
    expect(twoSampleBootstrap(groups, options)).toEqual(twoSampleBootstrap(groups, options));
  });
});

describe("changeOf and queryChange", () => {
  it("reads an interval of B − A as a verdict: improved, regressed, unchanged, inconclusive", () => {
    const at = (ci_low: number, ci_high: number) => ({
      estimate: (ci_low + ci_high) / 2,
      ci_low,
      ci_high,
      confidence: 0.95,
    });
    expect(changeOf(at(0.1, 0.3), 0.05, 3).change).toBe("improved");
    expect(changeOf(at(-0.3, -0.1), 0.05, 3).change).toBe("regressed");
    expect(changeOf(at(-0.05, 0.05), 0.05, 3).change).toBe("unchanged");
    expect(changeOf(at(-0.3, 0.1), 0.05, 3)).toMatchObject({ change: "inconclusive" });
    expect(changeOf(null, 0.05, 3)).toEqual({ change: "inconclusive" });
    // An undecided estimate on the floor itself: no number of runs would decide it, and no key says one.
    const onFloor = { estimate: 0.05, ci_low: -0.1, ci_high: 0.2, confidence: 0.95 };
    expect(changeOf(onFloor, 0.05, 3)).toStrictEqual({ change: "inconclusive" });
  });

  it("calls a query regressed when it passed and now fails, improved the other way", () => {
    expect(queryChange(true, false)).toBe("regressed");
    expect(queryChange(false, true)).toBe("improved");
    expect(queryChange(true, true)).toBe("unchanged");
    expect(queryChange(false, false)).toBe("unchanged");
    expect(queryChange(null, true)).toBe("inconclusive");
    expect(queryChange(true, null)).toBe("inconclusive");
  });
});

describe("compareEvals", () => {
  it("matches evals by id, lists the unmatched, and labels each and all together", () => {
    const result = compareEvals(
      [
        { id: 1, rates: [1, 1, 1] },
        { id: 2, rates: [1, 1, 1] },
        { id: "old", rates: [1, 1] },
      ],
      [
        { id: 2, rates: [0, 0, 0] },
        { id: 1, rates: [1, 1, 1] },
        { id: "new", rates: [0, 1] },
      ],
      0.05,
      options,
    );
    expect(result.evals.map((e) => [e.eval_id, e.change])).toEqual([
      [1, "unchanged"],
      [2, "regressed"],
    ]);
    expect(result.only_in_a).toEqual(["old"]);
    expect(result.only_in_b).toEqual(["new"]);
    expect(result.overall?.difference?.estimate).toBe(-0.5);
  });

  it("says why an eval with one run a side has no interval, and leaves it out of the whole", () => {
    const result = compareEvals([{ id: 1, rates: [1] }], [{ id: 1, rates: [0] }], 0.05, options);
    expect(result.evals[0]).toMatchObject({
      change: "inconclusive",
      difference: null,
      note: expect.any(String),
    });
    expect(result.overall).toBeNull();
  });
});
