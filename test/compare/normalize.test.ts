import { describe, expect, it } from "vitest";
import { normalizeAnalysis, normalizeComparison } from "../../src/compare/normalize.js";

describe("normalizeComparison", () => {
  it("recomputes each side's rubric scores from the criteria, counting finite numbers only", () => {
    const out = normalizeComparison(
      {
        winner: "A",
        rubric: {
          A: {
            content: {
              correctness: 4,
              completeness: 5,
              note: "good",
              text: "5",
              huge: Number.POSITIVE_INFINITY,
            },
            structure: { organization: 3, formatting: 4 },
            content_score: 1,
            structure_score: 1,
            overall_score: 1,
          },
          B: null,
        },
      },
      false,
    );
    expect(out.rubric).toEqual({
      A: {
        content: { correctness: 4, completeness: 5, note: "good", text: "5", huge: Number.POSITIVE_INFINITY },
        structure: { organization: 3, formatting: 4 },
        content_score: 4.5,
        structure_score: 3.5,
        overall_score: 8,
      },
      B: null,
    });
  });

  it("keeps the scores it cannot recompute from criteria without numbers", () => {
    const side = { content: {}, structure: { organization: "high" }, content_score: 7, structure_score: 6 };
    const out = normalizeComparison({ winner: "B", rubric: { A: side, B: "n/a" } }, false);
    expect(out.rubric).toStrictEqual({ A: side, B: "n/a" });
  });

  it("reads the winner whatever its case and spacing, and leaves other words as written", () => {
    const winnerOf = (winner: unknown) => normalizeComparison({ winner }, false).winner;
    expect(winnerOf(" a ")).toBe("A");
    expect(winnerOf("b\n")).toBe("B");
    expect(winnerOf(" Tie")).toBe("TIE");
    expect(winnerOf("")).toBe("");
    expect(winnerOf("neither")).toBe("neither");
    expect(winnerOf(2)).toBe(2);
  });

  it("recounts the expectation results from their details, skipping details that are not objects", () => {
    const details = [
      { text: "one", passed: true, evidence: "seen" },
      { text: "two", passed: false, evidence: "missing" },
      { text: "four", passed: true, evidence: "seen" },
      { text: "five", passed: true, evidence: "seen" },
      { text: "three", passed: "yes", evidence: "?" },
      "not a detail",
    ];
    const out = normalizeComparison(
      {
        winner: "A",
        expectation_results: { A: { passed: 3, total: 3, pass_rate: 1, details }, B: undefined },
      },
      true,
    );
    expect(out.expectation_results).toEqual({
      A: { passed: 3, total: 5, pass_rate: 0.6, details },
      B: undefined,
    });
  });

  it("computes the pass rate from the counts when there are no details", () => {
    const results = (side: Record<string, unknown>) =>
      (
        normalizeComparison({ winner: "A", expectation_results: { A: side, B: side } }, true)
          .expectation_results as Record<string, unknown>
      ).A;
    expect(results({ passed: 2, total: 3, pass_rate: 1 })).toEqual({ passed: 2, total: 3, pass_rate: 0.67 });
    expect(results({ passed: 1, total: 2, details: [] })).toEqual({
      passed: 1,
      total: 2,
      details: [],
      pass_rate: 0.5,
    });
    expect(results({ passed: 0, total: 0, pass_rate: 1 })).toStrictEqual({
      passed: 0,
      total: 0,
      pass_rate: 1,
    });
    expect(results({ passed: "2", total: 3 })).toStrictEqual({ passed: "2", total: 3 });
  });

  it("drops expectation results nobody asked for, and adds none when they were asked for but not given", () => {
    const given = { winner: "A", reasoning: "r", expectation_results: { A: {}, B: {} } };
    expect(normalizeComparison(given, false)).toStrictEqual({
      winner: "A",
      reasoning: "r",
      rubric: undefined,
    });
    expect(normalizeComparison({ winner: "A" }, true)).toStrictEqual({ winner: "A", rubric: undefined });
  });
});

describe("normalizeAnalysis", () => {
  const summary = {
    winner: "B" as const,
    winner_skill: "/skills/new",
    loser_skill: "none (without_skill)",
    comparator_reasoning: "B named the best quarter.",
  };

  it("puts in the winner and skills as they were, keeping the model's own reasoning", () => {
    const out = normalizeAnalysis(
      {
        comparison_summary: {
          winner: "A",
          winner_skill: "made/up",
          comparator_reasoning: "Own words.",
          extra: 1,
        },
        winner_strengths: ["x"],
      },
      summary,
    );
    expect(out).toStrictEqual({
      comparison_summary: { ...summary, comparator_reasoning: "Own words.", extra: 1 },
      winner_strengths: ["x"],
    });
  });

  it("takes the comparator's reasoning when the model gave none, or only blanks", () => {
    for (const comparison_summary of [
      undefined,
      "text",
      { comparator_reasoning: "  \n" },
      { comparator_reasoning: 3 },
    ]) {
      const out = normalizeAnalysis({ comparison_summary }, summary);
      expect((out.comparison_summary as Record<string, unknown>).comparator_reasoning).toBe(
        "B named the best quarter.",
      );
    }
  });
});
