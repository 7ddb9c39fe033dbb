import { describe, expect, it } from "vitest";
import { judgeMarkers } from "../../src/contracts/judge-markers.js";
import type { SimRubric } from "../../src/contracts/sim-script.js";
import { judgeAnswer } from "../../src/sim/index.js";

// What the simulator's tune evaluator answers for a prompt, parsed.
function evaluate(prompt: string, rubric?: SimRubric) {
  const answer = judgeAnswer(prompt, rubric ? { default: "pass", rubric } : undefined);
  expect(answer?.kind).toBe("evaluator");
  return JSON.parse(answer?.text ?? "");
}

const all = (score: number) => ({
  clarity: score,
  completeness: score,
  correctness: score,
  effectiveness: score,
  efficiency: score,
});

describe("the sim tune evaluator", () => {
  it("scores every dimension 70 with one weakness and its own suggestion when the script has no rubric", () => {
    expect(evaluate(`${judgeMarkers.evaluator}\nthe skill`)).toEqual({
      dimensions: all(70),
      strengths: ["Simulated strength (skillgym sim, scored 70/100)"],
      weaknesses: ["Simulated weakness (skillgym sim)"],
      suggestions: [
        {
          priority: "high",
          text: "Simulated suggestion (skillgym sim): state each step of the workflow explicitly.",
        },
      ],
    });
  });

  it("takes the rubric's default, its dimensions over it, and its suggestions", () => {
    const answer = evaluate(`${judgeMarkers.evaluator}\nthe skill`, {
      default: 40,
      dimensions: { clarity: 95 },
      suggestions: ["Name the output file.", "Say when to stop."],
    });
    expect(answer.dimensions).toEqual({ ...all(40), clarity: 95 });
    expect(answer.strengths).toEqual(["Simulated strength (skillgym sim, scored 40/100)"]);
    expect(answer.suggestions).toEqual([
      { priority: "high", text: "Name the output file." },
      { priority: "high", text: "Say when to stop." },
    ]);
  });

  it("lets the first matching case decide, case-insensitively, with its dimensions over the rubric's", () => {
    const rubric: SimRubric = {
      default: 50,
      dimensions: { clarity: 10, efficiency: 20 },
      suggestions: ["rubric suggestion"],
      when: [
        { match: "never there", score: 5 },
        { match: "STEP \\d", score: 92, dimensions: { clarity: 60 }, suggestions: ["case suggestion"] },
        { match: "step", score: 30 },
      ],
    };
    const answer = evaluate(`${judgeMarkers.evaluator}\nstep 1: read the notes`, rubric);
    expect(answer.dimensions).toEqual({ ...all(92), clarity: 60, efficiency: 20 });
    expect(answer.strengths).toEqual(["Simulated strength (skillgym sim, scored 92/100)"]);
    expect(answer.weaknesses).toEqual([]);
    expect(answer.suggestions).toEqual([{ priority: "high", text: "case suggestion" }]);
  });

  it("falls back to the rubric's suggestions when the matching case has none, and to its default score", () => {
    const rubric: SimRubric = {
      default: 89,
      suggestions: ["rubric suggestion"],
      when: [{ match: "notes", dimensions: { correctness: 12 } }],
    };
    const answer = evaluate(`${judgeMarkers.evaluator}\nread the notes`, rubric);
    expect(answer.dimensions).toEqual({ ...all(89), correctness: 12 });
    expect(answer.weaknesses).toEqual(["Simulated weakness (skillgym sim)"]);
    expect(answer.suggestions).toEqual([{ priority: "high", text: "rubric suggestion" }]);
  });

  it("calls a score of exactly 90 free of weaknesses", () => {
    expect(evaluate(`${judgeMarkers.evaluator}\nx`, { default: 90 }).weaknesses).toEqual([]);
  });

  it("matches only the text after the evaluator marker, not the instructions before it", () => {
    const rubric: SimRubric = { default: 50, when: [{ match: "release notes", score: 99 }] };
    expect(
      evaluate(`write release notes\n${judgeMarkers.evaluator}\nan unrelated skill`, rubric).dimensions,
    ).toEqual(all(50));
    expect(evaluate(`intro\n${judgeMarkers.evaluator}\nrelease notes skill`, rubric).dimensions).toEqual(
      all(99),
    );
  });
});
