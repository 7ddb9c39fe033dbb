import { describe, expect, it } from "vitest";
import { compositeScore, compositeWeights, rubricScore, tuneSettings } from "../../src/tune/index.js";
import { mean, meanDimensions } from "../../src/tune/score.js";

describe("scores", () => {
  it("weights the rubric: clarity .20, completeness .25, correctness .25, effectiveness .20, efficiency .10", () => {
    expect(
      rubricScore({ clarity: 100, completeness: 0, correctness: 0, effectiveness: 0, efficiency: 0 }),
    ).toBe(20);
    expect(
      rubricScore({ clarity: 0, completeness: 100, correctness: 0, effectiveness: 0, efficiency: 0 }),
    ).toBe(25);
    expect(
      rubricScore({ clarity: 0, completeness: 0, correctness: 0, effectiveness: 0, efficiency: 100 }),
    ).toBe(10);
    // 16 + 17.5 + 18.75 + 14 + 6 = 72.25, rounded to a tenth.
    expect(
      rubricScore({ clarity: 80, completeness: 70, correctness: 75, effectiveness: 70, efficiency: 60 }),
    ).toBe(72.3);
  });

  it("mixes half the pass rate and half the rubric into the composite, rounded to a tenth", () => {
    expect(compositeWeights).toEqual({ expectations: 0.5, rubric: 0.5 });
    expect(compositeScore(1, 60)).toBe(80);
    expect(compositeScore(0, 60)).toBe(30);
    expect(compositeScore(2 / 3, 71)).toBe(68.8);
  });
});

describe("presets", () => {
  it("defaults to standard and lets flags override either setting", () => {
    expect(tuneSettings({})).toEqual({ preset: "standard", max_iterations: 5, quality_threshold: 80 });
    expect(tuneSettings({ preset: "quick" })).toEqual({
      preset: "quick",
      max_iterations: 3,
      quality_threshold: 70,
    });
    expect(tuneSettings({ preset: "thorough", threshold: 95 })).toEqual({
      preset: "thorough",
      max_iterations: 8,
      quality_threshold: 95,
    });
    expect(tuneSettings({ maxIterations: 2 }).max_iterations).toBe(2);
  });
});

describe("means and bounds", () => {
  it("keeps scores within 0–100", () => {
    expect(compositeScore(2, 100)).toBe(100);
    expect(compositeScore(-1, 0)).toBe(0);
    expect(
      rubricScore({ clarity: 200, completeness: 200, correctness: 200, effectiveness: 200, efficiency: 200 }),
    ).toBe(100);
    expect(
      rubricScore({ clarity: -50, completeness: 0, correctness: 0, effectiveness: 0, efficiency: 0 }),
    ).toBe(0);
  });

  it("averages each dimension to a tenth, and zero for none", () => {
    expect(
      meanDimensions([
        { clarity: 10, completeness: 20, correctness: 30, effectiveness: 40, efficiency: 50 },
        { clarity: 11, completeness: 21, correctness: 31, effectiveness: 41, efficiency: 52 },
        { clarity: 11, completeness: 20, correctness: 30, effectiveness: 40, efficiency: 50 },
      ]),
    ).toEqual({
      clarity: 10.7,
      completeness: 20.3,
      correctness: 30.3,
      effectiveness: 40.3,
      efficiency: 50.7,
    });
    expect(meanDimensions([])).toEqual({
      clarity: 0,
      completeness: 0,
      correctness: 0,
      effectiveness: 0,
      efficiency: 0,
    });
    expect(mean([1, 2, 4])).toBe(7 / 3);
    expect(mean([])).toBe(0);
  });
});
