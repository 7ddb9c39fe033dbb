import { describe, expect, it } from "vitest";
import { decideWinner, shouldTerminate, weakestSkill } from "../../src/tune/index.js";

const running = {
  latest_score: 70,
  quality_threshold: 80,
  current_iteration: 2,
  max_iterations: 5,
  score_trend: [60, 70],
  consecutive_errors: 0,
  max_errors: 3,
};

describe("shouldTerminate (the seed's rule)", () => {
  it("goes on while no condition holds, and before anything was measured", () => {
    expect(shouldTerminate(running)).toEqual({ terminate: false });
    expect(
      shouldTerminate({ ...running, latest_score: null, current_iteration: 0, score_trend: [] }),
    ).toEqual({
      terminate: false,
    });
  });

  it("stops at the threshold, inclusive", () => {
    expect(shouldTerminate({ ...running, latest_score: 80 })).toEqual({
      terminate: true,
      reason: "quality_threshold_met",
    });
    expect(shouldTerminate({ ...running, latest_score: 79.9 }).terminate).toBe(false);
  });

  it("stops after the last iteration", () => {
    expect(shouldTerminate({ ...running, current_iteration: 5 })).toEqual({
      terminate: true,
      reason: "max_iterations_reached",
    });
  });

  it("detects convergence: at most 2 points gained from two iterations before to the last", () => {
    const converged = shouldTerminate({ ...running, current_iteration: 3, score_trend: [60, 75, 62] });
    expect(converged).toEqual({ terminate: true, reason: "convergence_detected" });
    expect(shouldTerminate({ ...running, current_iteration: 3, score_trend: [60, 50, 62.5] }).terminate).toBe(
      false,
    );
    // Only the last three count.
    expect(
      shouldTerminate({ ...running, current_iteration: 4, score_trend: [70, 60, 61, 65] }).terminate,
    ).toBe(false);
    expect(shouldTerminate({ ...running, current_iteration: 3, score_trend: [70, 65, 60] }).terminate).toBe(
      true,
    );
  });

  it("stops after max_errors failed iterations in a row", () => {
    expect(shouldTerminate({ ...running, consecutive_errors: 3 })).toEqual({
      terminate: true,
      reason: "error_limit_reached",
    });
    expect(shouldTerminate({ ...running, consecutive_errors: 2 }).terminate).toBe(false);
  });

  it("checks in the seed's order: threshold, iterations, convergence, errors", () => {
    const all = {
      ...running,
      latest_score: 90,
      current_iteration: 5,
      score_trend: [90, 90, 90],
      consecutive_errors: 3,
    };
    expect(shouldTerminate(all)).toMatchObject({ reason: "quality_threshold_met" });
    expect(shouldTerminate({ ...all, latest_score: 70, score_trend: [70, 70, 70] })).toMatchObject({
      reason: "max_iterations_reached",
    });
    expect(
      shouldTerminate({ ...all, latest_score: 70, current_iteration: 3, score_trend: [70, 70, 70] }),
    ).toMatchObject({ reason: "convergence_detected" });
  });
});

describe("decideWinner (keep-the-winner)", () => {
  it("keeps a candidate only when it scores strictly better", () => {
    expect(decideWinner({ score: 70 }, { score: 70.1 })).toBe("won");
    expect(decideWinner({ score: 70 }, { score: 70 })).toBe("tie");
    expect(decideWinner({ score: 70 }, { score: 69.9 })).toBe("lost");
  });

  it("compares to a tenth of a point, so float noise is a tie", () => {
    expect(decideWinner({ score: 0.1 + 0.2 }, { score: 0.3 })).toBe("tie");
  });

  it("never lets a fallback score win", () => {
    expect(decideWinner({ score: 40 }, { score: 75, reliable: false })).toBe("lost");
    expect(decideWinner({ score: 40 }, { score: 40, reliable: false })).toBe("tie");
  });
});

describe("weakestSkill", () => {
  it("picks the lowest score, the earliest in the chain on a tie, and ignores unscored skills", () => {
    expect(weakestSkill({ a: 80, b: 60, c: 90 }, ["a", "b", "c"])).toBe("b");
    expect(weakestSkill({ a: 60, b: 60 }, ["b", "a"])).toBe("b");
    expect(weakestSkill({ b: 70 }, ["a", "b"])).toBe("b");
    expect(weakestSkill({}, ["a", "b"])).toBe("a");
  });

  it("keeps the lower score when a later skill scores the same or more, and needs at least one skill", () => {
    expect(weakestSkill({ a: 50, b: 50, c: 40, d: 40 }, ["a", "b", "c", "d"])).toBe("c");
    expect(weakestSkill({ a: 10, b: 90 }, ["a", "b"])).toBe("a");
    expect(weakestSkill({ x: 1 }, ["a"])).toBe("a");
    expect(() => weakestSkill({ a: 1 }, [])).toThrow("weakestSkill needs at least one skill");
  });
});

describe("shouldTerminate at its boundaries", () => {
  it("needs three scores to speak of convergence", () => {
    expect(shouldTerminate({ ...running, score_trend: [70, 70] })).toEqual({ terminate: false });
    expect(shouldTerminate({ ...running, score_trend: [70, 70, 72] })).toEqual({
      terminate: true,
      reason: "convergence_detected",
    });
    expect(shouldTerminate({ ...running, score_trend: [70, 70, 72.1] })).toEqual({ terminate: false });
  });

  it("goes on one iteration short of the limit and one error short of the error limit", () => {
    expect(shouldTerminate({ ...running, current_iteration: 4 })).toEqual({ terminate: false });
    expect(shouldTerminate({ ...running, current_iteration: 6 })).toMatchObject({
      reason: "max_iterations_reached",
    });
    expect(shouldTerminate({ ...running, consecutive_errors: 4 })).toMatchObject({
      reason: "error_limit_reached",
    });
  });
});

describe("decideWinner with a reliable score", () => {
  it("treats reliable: true as an ordinary score", () => {
    expect(decideWinner({ score: 40 }, { score: 40.1, reliable: true })).toBe("won");
    expect(decideWinner({ score: 40 }, { score: 39.9, reliable: false })).toBe("lost");
    expect(decideWinner({ score: 40.04 }, { score: 40.0 })).toBe("tie");
  });
});
