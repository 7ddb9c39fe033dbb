import { describe, expect, it } from "vitest";
import { judgeGate } from "../../src/judges/judges-report.js";

const pair = (a: string, b: string, percent: number | null) => ({
  a,
  b,
  n: percent === null ? 0 : 10,
  percent_agreement: percent,
  kappa: null,
  kappa_ci: null,
  disagreements: [],
});

describe("the --min-judge-agreement gate", () => {
  it("is judged by the pair that agrees least, and passes at the limit exactly", () => {
    const pairs = [pair("x", "y", 0.9), pair("x", "z", 0.75), pair("y", "z", null), pair("y", "w", 0.8)];
    expect(judgeGate(pairs, 0.75)).toEqual({
      min_judge_agreement: 0.75,
      passed: true,
      message: "lowest judge agreement 75.0% (x vs z) >= 75.0%",
    });
    expect(judgeGate(pairs, 0.8)).toEqual({
      min_judge_agreement: 0.8,
      passed: false,
      message: "lowest judge agreement 75.0% (x vs z) < 80.0%",
    });
  });

  it("fails when no pair graded the same expectations", () => {
    expect(judgeGate([pair("x", "y", null)], 0.5)).toEqual({
      min_judge_agreement: 0.5,
      passed: false,
      message: "no pair of judges graded the same expectations",
    });
    expect(judgeGate([], 0.5).passed).toBe(false);
  });
});

describe("the gate's lowest pair", () => {
  it("is the first named of pairs that agree equally little", () => {
    expect(judgeGate([pair("x", "y", 0.6), pair("x", "z", 0.6)], 0.7).message).toBe(
      "lowest judge agreement 60.0% (x vs y) < 70.0%",
    );
  });
});
