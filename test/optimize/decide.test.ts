import { describe, expect, it } from "vitest";
import type { OptimizeIteration, OptimizeSubsetScore } from "../../src/contracts/optimize-results.js";
import type { TriggerQueryResult } from "../../src/contracts/trigger-results.js";
import { earlierAttempts, repeatOf } from "../../src/optimize/decide.js";
import {
  bestIteration,
  isPerfect,
  stopReason,
  subsetScore,
  testGain,
  trainFailures,
} from "../../src/optimize/index.js";

/** A query's result from its class and how many of `runs` runs triggered. */
function query(shouldTrigger: boolean, triggers: number, runs = 1, errors = 0): TriggerQueryResult {
  const scored = runs - errors;
  const rate = scored === 0 ? null : triggers / scored;
  return {
    query: `${shouldTrigger ? "should" : "should not"} ${Math.random()}`,
    should_trigger: shouldTrigger,
    trigger_rate: rate,
    triggers,
    runs,
    errors,
    pass: rate === null ? null : shouldTrigger ? rate >= 0.5 : rate < 0.5,
  };
}

function side(results: TriggerQueryResult[]): OptimizeSubsetScore {
  return subsetScore(
    results,
    results.map((_, i) => i),
  );
}

function iteration(
  n: number,
  train: number | null,
  test: number | null,
  extra: Partial<OptimizeIteration> = {},
) {
  // A side of 10 one-run queries of which `score * 10` are right.
  const scored = (score: number | null) =>
    score === null ? null : side(Array.from({ length: 10 }, (_, i) => query(true, i < score * 10 ? 1 : 0)));
  return {
    iteration: n,
    description: `description ${n}`,
    status: "complete",
    train: scored(train),
    test: scored(test),
    trigger_runs: 20,
    cost_usd: 0,
    ...extra,
  } as OptimizeIteration;
}

/** The iteration with its test score set outright (a side's accuracy cannot be that close to another). */
function withTestScore(it: OptimizeIteration, score: number): OptimizeIteration {
  return { ...it, test: { ...(it.test as OptimizeSubsetScore), score } };
}

const options = { maxIterations: 5, patience: 2 };

describe("scoring a side", () => {
  it("scores accuracy over scored runs and lists the failures with their rates", () => {
    const s = side([query(true, 3, 3), query(true, 1, 3), query(false, 2, 3), query(false, 0, 2, 1)]);
    expect(s.score).toBeCloseTo((3 + 1 + 1 + 1) / (3 + 3 + 3 + 1), 10);
    expect(s.summary).toMatchObject({ total: 4, passed: 2, failed: 2 });
    expect(trainFailures(s).map((f) => [f.should_trigger, f.trigger_rate])).toEqual([
      [true, 1 / 3],
      [false, 2 / 3],
    ]);
  });
});

describe("stopReason", () => {
  it("stops when every train query passes", () => {
    expect(stopReason([iteration(0, 0.5, 0.5), iteration(1, 1, 0.6)], options)).toBe("train_perfect");
  });

  it("stops at max iterations", () => {
    const its = [0, 1, 2, 3, 4, 5].map((n) => iteration(n, 0.5, n / 10));
    expect(stopReason(its.slice(0, 5), options)).toBeUndefined();
    expect(stopReason(its, options)).toBe("max_iterations");
    expect(stopReason([iteration(0, 0.5, 0.5)], { ...options, maxIterations: 0 })).toBe("max_iterations");
  });

  it("stops when the test score has not moved for `patience` iterations", () => {
    const moving = [iteration(0, 0.2, 0.5), iteration(1, 0.3, 0.5), iteration(2, 0.4, 0.6)];
    expect(stopReason(moving, options)).toBeUndefined();
    const flat = [...moving, iteration(3, 0.5, 0.6), iteration(4, 0.6, 0.6)];
    expect(stopReason(flat.slice(0, 4), options)).toBeUndefined();
    expect(stopReason(flat, options)).toBe("test_plateau");
  });

  it("counts test scores 1e-9 apart as moved", () => {
    const scored = [0, 0, 1e-9].map((score, n) => withTestScore(iteration(n, 0.5, 0.5), score));
    expect(stopReason(scored, options)).toBeUndefined();
    expect(stopReason([scored[0]!, scored[1]!, scored[0]!], options)).toBe("test_plateau");
  });

  it("stops after two improver failures in a row", () => {
    const failed = (n: number) => iteration(n, null, null, { status: "improver_failed" });
    expect(stopReason([iteration(0, 0.5, 0.5), failed(1)], options)).toBeUndefined();
    expect(stopReason([iteration(0, 0.5, 0.5), failed(1), failed(2)], options)).toBe("improver_failed");
  });
});

describe("bestIteration", () => {
  it("picks the highest test score, not the highest train score", () => {
    const its = [
      iteration(0, 0.2, 0.3),
      iteration(1, 0.9, 0.4),
      iteration(2, 0.5, 0.7),
      iteration(3, 0.8, 0.6),
    ];
    expect(bestIteration(its)?.iteration).toBe(2);
  });

  it("breaks ties to the earliest and skips iterations without a complete test score", () => {
    const its = [
      iteration(0, 0.2, 0.5),
      iteration(1, 0.4, 0.7),
      iteration(2, 0.9, 0.7),
      iteration(3, 0.9, 0.9, { status: "interrupted" }),
      iteration(4, null, null, { status: "improver_failed" }),
    ];
    expect(bestIteration(its)?.iteration).toBe(1);
    expect(bestIteration([iteration(0, null, null, { status: "interrupted" })])).toBeUndefined();
  });

  it("takes a later test score 1e-9 higher as better", () => {
    const its = [withTestScore(iteration(0, 0.5, 0.5), 0), withTestScore(iteration(1, 0.5, 0.5), 1e-9)];
    expect(bestIteration(its)?.iteration).toBe(1);
  });
});

describe("testGain", () => {
  const original = side([
    ...Array.from({ length: 10 }, () => query(true, 0, 3)),
    ...Array.from({ length: 10 }, () => query(false, 0, 3)),
  ]);

  it("calls a large, consistent gain beyond noise", () => {
    const best = side([
      ...Array.from({ length: 10 }, () => query(true, 3, 3)),
      ...Array.from({ length: 10 }, () => query(false, 0, 3)),
    ]);
    const gain = testGain(original, best)!;
    expect(gain.gain).toBeCloseTo(0.5, 10);
    expect(gain.ci_low).toBeGreaterThan(0);
    expect(gain.beyond_noise).toBe(true);
    expect(gain.note).toMatch(/^\+0\.50 on test, beyond noise \(95% interval/);
  });

  it("calls a gain resting on one flaky query within noise", () => {
    const best = side([
      query(true, 2, 3),
      ...Array.from({ length: 9 }, () => query(true, 0, 3)),
      ...Array.from({ length: 10 }, () => query(false, 0, 3)),
    ]);
    const gain = testGain(original, best)!;
    expect(gain.gain).toBeCloseTo(2 / 60, 3);
    expect(gain.ci_low).toBeLessThanOrEqual(0);
    expect(gain.beyond_noise).toBe(false);
    expect(gain.note).toContain("within noise");
  });

  it("is reproducible and says so when there is no gain", () => {
    expect(testGain(original, original)).toEqual(testGain(original, original));
    expect(testGain(original, original)?.note).toMatch(/no gain over the original/);
  });
});

describe("what the improver is shown of earlier iterations", () => {
  it("lists each evaluated description once, with its train score, and neither a repeat nor a failed proposal", () => {
    const its = [
      iteration(0, 0.5, 0.4),
      iteration(1, 0.7, 0.6),
      iteration(2, 0.7, 0.6, { description: "description 1", repeat_of: 1 }),
      iteration(3, null, null, { description: "description 1", status: "improver_failed" }),
    ];
    expect(earlierAttempts(its)).toEqual([
      { iteration: 0, description: "description 0", trainScore: 0.5, trainPassed: 5, trainTotal: 10 },
      { iteration: 1, description: "description 1", trainScore: 0.7, trainPassed: 7, trainTotal: 10 },
    ]);
  });

  it("takes a description proposed again for a repeat only of an iteration that evaluated it", () => {
    const its = [
      iteration(0, 0.5, 0.4),
      iteration(1, null, null, { description: "same", status: "interrupted" }),
      iteration(2, 0.6, 0.5, { description: "same" }),
    ];
    expect(repeatOf(its, "same")?.iteration).toBe(2);
    expect(repeatOf(its, "description 0")?.iteration).toBe(0);
    expect(repeatOf(its, "never tried")).toBeUndefined();
  });
});

describe("stopReason before anything is evaluated", () => {
  it("has no reason to stop with no iteration yet", () => {
    expect(stopReason([], options)).toBeUndefined();
  });

  it("does not call a side with no queries perfect", () => {
    expect(isPerfect(side([]))).toBe(false);
    expect(isPerfect(side([query(true, 1)]))).toBe(true);
  });
});
