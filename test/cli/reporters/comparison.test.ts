import { describe, expect, it } from "vitest";
import { comparisonJson, comparisonText } from "../../../src/cli/reporters/comparison.js";
import type { WrittenComparison } from "../../../src/compare/index.js";
import { Comparison } from "../../../src/contracts/comparison.js";
import { comparisonAnswer } from "../../compare/fixtures.js";

const written = (winner: "A" | "B" | "TIE", over: Partial<WrittenComparison> = {}): WrittenComparison => ({
  n: 1,
  comparisonPath: "/ws/comparisons/comparison-1.json",
  mappingPath: "/ws/comparisons/comparison-1.mapping.json",
  analysisPath: "/ws/comparisons/comparison-1.analysis.json",
  comparison: Comparison.parse(JSON.parse(comparisonAnswer(winner))),
  mapping: { A: "/ws/run-b", B: "/ws/run-a", judge_model: "claude-haiku", simulated: false },
  winnerRunDir: winner === "TIE" ? null : winner === "A" ? "/ws/run-b" : "/ws/run-a",
  analysis: undefined,
  costUsd: 0.0123456789,
  judgeModel: "claude-haiku",
  simulated: false,
  ...over,
});

describe("comparisonText", () => {
  it("names the winner's run, the blind labels, the reasoning, the files and the judge's cost", () => {
    expect(comparisonText(written("A"))).toBe(
      [
        "A wins: /ws/run-b",
        "  A = /ws/run-b",
        "  B = /ws/run-a",
        "  Output A is better.",
        "  comparison: /ws/comparisons/comparison-1.json",
        "  labels: /ws/comparisons/comparison-1.mapping.json",
        "  analysis: /ws/comparisons/comparison-1.analysis.json",
        "  judge: claude-haiku, $0.0123",
        "",
      ].join("\n"),
    );
  });

  it("says a tie, one from position bias, a simulated judge, and why there is no analysis", () => {
    const tie = comparisonText(
      written("TIE", { analysisPath: undefined, analysisSkipped: "tie", simulated: true }),
    );
    expect(tie.split("\n").slice(0, 1)).toEqual(["tie (simulated: skillgym sim stood in for the judge)"]);
    expect(tie.split("\n").at(-3)).toBe("  analysis: none (a tie has no winner to explain)");
    const biased = written("TIE", { analysisPath: undefined, analysisSkipped: "not requested" });
    biased.comparison.position_bias = true;
    const text = comparisonText(biased).split("\n");
    expect(text[0]).toBe(
      "tie (position bias: the judge's winner changed with the order the outputs were shown in)",
    );
    expect(text.at(-3)).toBe("  labels: /ws/comparisons/comparison-1.mapping.json");
    expect(text.at(-2)).toBe("  judge: claude-haiku, $0.0123");
  });

  it("names no run when the winner's run is not known", () => {
    expect(comparisonText(written("B", { winnerRunDir: null })).split("\n")[0]).toBe("B wins: ");
  });
});

describe("comparisonJson", () => {
  it("gives the comparison as --json prints it", () => {
    expect(comparisonJson(written("A"))).toStrictEqual({
      winner: "A",
      winner_run_dir: "/ws/run-b",
      mapping: { A: "/ws/run-b", B: "/ws/run-a" },
      reasoning: "Output A is better.",
      comparison_path: "/ws/comparisons/comparison-1.json",
      mapping_path: "/ws/comparisons/comparison-1.mapping.json",
      analysis_path: "/ws/comparisons/comparison-1.analysis.json",
      judge_model: "claude-haiku",
      simulated: false,
      cost_usd: 0.012346,
    });
  });

  it("adds position bias and why there is no analysis when there is one", () => {
    const tie = written("TIE", { analysisPath: undefined, analysisSkipped: "tie", simulated: true });
    tie.comparison.position_bias = false;
    expect(comparisonJson(tie)).toStrictEqual({
      winner: "TIE",
      winner_run_dir: null,
      mapping: { A: "/ws/run-b", B: "/ws/run-a" },
      reasoning: "Output TIE is better.",
      position_bias: false,
      comparison_path: "/ws/comparisons/comparison-1.json",
      mapping_path: "/ws/comparisons/comparison-1.mapping.json",
      analysis_path: null,
      analysis_skipped: "tie",
      judge_model: "claude-haiku",
      simulated: true,
      cost_usd: 0.012346,
    });
  });
});
