import { describe, expect, it } from "vitest";
import { expectationsBlock, judgeMarkers } from "../../src/contracts/judge-markers.js";
import { SimJudge } from "../../src/contracts/sim-script.js";
import { judgeAnswer } from "../../src/sim/index.js";

// A comparator prompt as src/compare/comparator.ts lays it out: task, Output A, Output B, then the rubric.
function comparatorPrompt(a: string, b: string, expectations?: string[]): string {
  return [
    judgeMarkers.comparator,
    "## The task",
    ...(expectations ? [expectationsBlock(expectations)] : []),
    `## Output A\n${a}`,
    `## Output B\n${b}`,
    "## How to judge\nThe report names every column.",
  ].join("\n\n");
}

function compared(text: string, judge?: unknown) {
  const answer = judgeAnswer(text, judge === undefined ? undefined : SimJudge.parse(judge));
  expect(answer?.kind).toBe("comparator");
  return JSON.parse(answer?.text ?? "");
}

const rubric = (n: number) => ({
  content: { correctness: n, completeness: n, accuracy: n },
  structure: { organization: n, formatting: n, usability: n },
  content_score: n,
  structure_score: n,
  overall_score: n * 2,
});

describe("the sim comparator", () => {
  it("lets output A win by default, scoring the winner 5 and the loser 3", () => {
    const answer = compared(comparatorPrompt("first", "second"));
    expect(answer).toEqual({
      winner: "A",
      reasoning: "Simulated comparison (skillgym sim): output A wins by script, not by reading the outputs.",
      rubric: { A: rubric(5), B: rubric(3) },
      output_quality: {
        A: { score: 10, strengths: ["Simulated strength (skillgym sim, scored 5/5)"], weaknesses: [] },
        B: {
          score: 6,
          strengths: ["Simulated strength (skillgym sim, scored 3/5)"],
          weaknesses: ["Simulated weakness (skillgym sim)"],
        },
      },
    });
  });

  it("follows the script's winner, and scores a tie 4 on both sides", () => {
    const b = compared(comparatorPrompt("first", "second"), { winner: "B" });
    expect(b.winner).toBe("B");
    expect(b.reasoning).toContain("output B wins by script");
    expect([b.rubric.A.overall_score, b.rubric.B.overall_score]).toEqual([6, 10]);
    const tie = compared(comparatorPrompt("first", "second"), { winner: "TIE" });
    expect(tie.winner).toBe("TIE");
    expect(tie.reasoning).toBe("Simulated comparison (skillgym sim): scripted as a tie.");
    expect(tie.rubric).toEqual({ A: rubric(4), B: rubric(4) });
    expect(tie.output_quality.A.weaknesses).toEqual(["Simulated weakness (skillgym sim)"]);
  });

  it("prefers the output `prefer` matches in either position, and falls back to `winner` when both or none do", () => {
    const judge = { prefer: "CSV TABLE", winner: "TIE" };
    expect(compared(comparatorPrompt("a csv table", "prose"), judge).winner).toBe("A");
    expect(compared(comparatorPrompt("prose", "a csv table"), judge).winner).toBe("B");
    expect(compared(comparatorPrompt("csv table", "csv table"), judge).winner).toBe("TIE");
    expect(compared(comparatorPrompt("prose", "prose"), judge).winner).toBe("TIE");
  });

  it("reads each output only up to the next heading: the rubric and the other output do not count", () => {
    const judge = { prefer: "every column", winner: "TIE" };
    // The rubric after Output B names "every column": B's section ends before it.
    expect(compared(comparatorPrompt("prose", "prose"), judge).winner).toBe("TIE");
    const swapped = [judgeMarkers.comparator, "## Output B\nprose", "## Output A\nevery column"].join("\n\n");
    expect(compared(swapped, judge).winner).toBe("A");
    expect(compared(`${judgeMarkers.comparator}\nno outputs shown`, judge).winner).toBe("TIE");
  });

  it("prefers the only output shown when it matches, wherever the prompt shows it", () => {
    expect(
      compared(`${judgeMarkers.comparator}\n\n## Output A\nclick here`, { prefer: "here", winner: "B" })
        .winner,
    ).toBe("A");
    const first = `## Output A\na csv table\n\n## Output B\nprose\n\n${judgeMarkers.comparator}`;
    expect(compared(first, { prefer: "csv table", winner: "TIE" }).winner).toBe("A");
  });

  it("grades the expectations for both outputs when the prompt lists them", () => {
    const judge = { default: "fail", verdicts: [{ match: "column", passed: true }] };
    const answer = compared(comparatorPrompt("x", "y", ["names every column", "is short"]), judge);
    const results = {
      passed: 1,
      total: 2,
      pass_rate: 0.5,
      details: [
        { text: "names every column", passed: true, evidence: "Simulated verdict (skillgym sim)" },
        { text: "is short", passed: false, evidence: "Simulated verdict (skillgym sim)" },
      ],
    };
    expect(answer.expectation_results).toEqual({ A: results, B: results });
    // The comparator shows outputs, not a run's evidence: a `when` rule has nothing to look at.
    const when = { default: "fail", verdicts: [{ match: "column", passed: true, when: "." }] };
    expect(
      compared(comparatorPrompt("x", "y", ["names every column"]), when).expectation_results.A.details[0]
        .passed,
    ).toBe(false);
    expect(compared(comparatorPrompt("x", "y", [])).expectation_results).toEqual({
      A: { passed: 0, total: 0, pass_rate: 0, details: [] },
      B: { passed: 0, total: 0, pass_rate: 0, details: [] },
    });
  });
});
