import { describe, expect, it } from "vitest";
import { Analysis, Comparison } from "../../src/contracts/index.js";
import { issuePaths } from "./issues.js";
import { seedAnalysis, seedComparison } from "./seed-examples.js";

describe("comparison.json", () => {
  it("accepts a TIE and no expectation_results (the comparator omits them without expectations)", () => {
    const { expectation_results: _omitted, ...rest } = seedComparison;
    const value = { ...rest, winner: "TIE" };
    expect(Comparison.parse(value)).toEqual(value);
  });

  it("accepts criteria adapted to the task", () => {
    const rubricA = { ...seedComparison.rubric.A, content: { "field alignment": 4, "data placement": 5 } };
    const value = { ...seedComparison, rubric: { ...seedComparison.rubric, A: rubricA } };
    expect(Comparison.safeParse(value).success).toBe(true);
  });

  it("fails at the wrong winner, a missing side and an out-of-range score", () => {
    const bad = {
      ...seedComparison,
      winner: "C",
      rubric: { A: { ...seedComparison.rubric.A, content: { correctness: 7 } } },
    };
    expect(issuePaths(Comparison, bad)).toEqual(["winner", "rubric.A.content.correctness", "rubric.B"]);
  });
});

describe("analysis.json", () => {
  it("needs only the summary, strengths, weaknesses and suggestions", () => {
    const { instruction_following: _a, transcript_insights: _b, ...rest } = seedAnalysis;
    expect(Analysis.parse(rest)).toEqual(rest);
  });

  it("keeps an unlisted category but rejects an unknown priority", () => {
    const suggestion = {
      ...seedAnalysis.improvement_suggestions[0]!,
      category: "naming",
      priority: "urgent",
    };
    const bad = { ...seedAnalysis, improvement_suggestions: [suggestion] };
    expect(issuePaths(Analysis, bad)).toEqual(["improvement_suggestions[0].priority"]);
  });

  it("rejects TIE as the analysed winner", () => {
    const bad = {
      ...seedAnalysis,
      comparison_summary: { ...seedAnalysis.comparison_summary, winner: "TIE" },
    };
    expect(issuePaths(Analysis, bad)).toEqual(["comparison_summary.winner"]);
  });
});
