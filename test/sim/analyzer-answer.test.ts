import { describe, expect, it } from "vitest";
import { expectationsBlock, judgeMarkers } from "../../src/contracts/judge-markers.js";
import { SimJudge } from "../../src/contracts/sim-script.js";
import { judgeAnswer } from "../../src/sim/index.js";

function answered(text: string, judge?: unknown) {
  const answer = judgeAnswer(text, judge === undefined ? undefined : SimJudge.parse(judge));
  return { kind: answer?.kind, json: JSON.parse(answer?.text ?? "") };
}

describe("the sim analyzer", () => {
  it("explains the winner the prompt names, with both skills' labels", () => {
    const text = `${judgeMarkers.analyzer}\n<winner>B</winner> <winner-skill> v2 </winner-skill> <loser-skill>v1</loser-skill>`;
    const { kind, json } = answered(text, { winner: "A" });
    expect(kind).toBe("analyzer");
    expect(json.comparison_summary).toEqual({
      winner: "B",
      winner_skill: "v2",
      loser_skill: "v1",
      comparator_reasoning: "Simulated analysis (skillgym sim): no model read the transcripts.",
    });
    expect(json.instruction_following).toEqual({
      winner: { score: 9, issues: [] },
      loser: { score: 6, issues: ["Simulated issue (skillgym sim)"] },
    });
    expect(json.improvement_suggestions).toEqual([
      {
        priority: "medium",
        category: "instructions",
        suggestion: "Simulated suggestion (skillgym sim): state each step of the workflow explicitly.",
        expected_impact: "None measured: this analysis is simulated.",
      },
    ]);
    expect(json.transcript_insights).toEqual({
      winner_execution_pattern: "Simulated (skillgym sim)",
      loser_execution_pattern: "Simulated (skillgym sim)",
    });
    expect(json.winner_strengths).toEqual(["Simulated strength (skillgym sim)"]);
    expect(json.loser_weaknesses).toEqual(["Simulated weakness (skillgym sim)"]);
  });

  it("falls back to the script's winner B, and otherwise A, when the prompt names no winner", () => {
    const winner = (judge?: unknown, tag = "") =>
      answered(`${judgeMarkers.analyzer}\n${tag}`, judge).json.comparison_summary.winner;
    expect(winner({ winner: "B" })).toBe("B");
    expect(winner({ winner: "TIE" })).toBe("A");
    expect(winner(undefined)).toBe("A");
    expect(winner({ winner: "B" }, "<winner>TIE</winner>")).toBe("B");
    expect(winner({ winner: "B" }, "<winner>A</winner>")).toBe("A");
    const summary = answered(judgeMarkers.analyzer).json.comparison_summary;
    expect([summary.winner_skill, summary.loser_skill]).toEqual(["(not given)", "(not given)"]);
  });
});

describe("the sim rewording", () => {
  it("suggests each expectation made concrete, without its trailing full stop", () => {
    const text = `${judgeMarkers.rewording}\n${expectationsBlock(["The summary is clear. ", "Has a table"])}`;
    const { kind, json } = answered(text);
    expect(kind).toBe("rewording");
    const tail =
      ", as shown by a named file, value or exact wording in the outputs (simulated rewording, skillgym sim)";
    expect(json).toEqual({
      rewordings: [
        { text: "The summary is clear. ", suggestion: `The summary is clear${tail}` },
        { text: "Has a table", suggestion: `Has a table${tail}` },
      ],
    });
    expect(answered(judgeMarkers.rewording).json).toEqual({ rewordings: [] });
  });
});
