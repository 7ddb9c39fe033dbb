import { describe, expect, it } from "vitest";
import { Grading } from "../../src/contracts/grading.js";
import { parseGraderAnswer } from "../../src/judge/grader.js";
import { JudgeError } from "../../src/judge/judge.js";

const expectations = ["The report lists every region", "The North total is 1,200", "A chart is included"];

const answer = {
  expectations: [
    { text: expectations[0], passed: true, evidence: 'report.md: "| North | 1,200 |", "| South | 800 |"' },
    { text: expectations[1], passed: true, evidence: 'report.md: "| North | 1,200 |"' },
    { text: expectations[2], passed: false, evidence: "No image among the outputs." },
  ],
  claims: [
    { claim: "All totals are correct", type: "quality", verified: false, evidence: "South is off by 10" },
  ],
  user_notes_summary: { uncertainties: ["South data may be stale"], needs_review: [], workarounds: [] },
  eval_feedback: {
    suggestions: [{ assertion: expectations[0], reason: "A list of made-up regions would also pass" }],
    overall: "Check values, not presence.",
  },
};

function failure(text: string, list = expectations): JudgeError {
  try {
    parseGraderAnswer(text, list);
  } catch (error) {
    expect(error).toBeInstanceOf(JudgeError);
    expect((error as JudgeError).retryable).toBe(false);
    return error as JudgeError;
  }
  throw new Error("expected a JudgeError");
}

describe("parseGraderAnswer", () => {
  it("reads a bare JSON answer into grading.json's fields", () => {
    const graded = parseGraderAnswer(JSON.stringify(answer), expectations);
    expect(graded.expectations.map((e) => [e.text, e.passed])).toEqual([
      [expectations[0], true],
      [expectations[1], true],
      [expectations[2], false],
    ]);
    expect(graded.expectations[2]!.evidence).toBe("No image among the outputs.");
    expect(graded.expectations.every((e) => e.source === "judge")).toBe(true);
    expect(graded.claims).toEqual(answer.claims);
    expect(graded.user_notes_summary.uncertainties).toEqual(["South data may be stale"]);
    expect(graded.eval_feedback?.suggestions[0]?.assertion).toBe(expectations[0]);
    const grading = Grading.safeParse({
      ...graded,
      summary: { passed: 2, failed: 1, total: 3, pass_rate: 2 / 3 },
    });
    expect(grading.success).toBe(true);
  });

  it("tolerates a ```json fence and prose around the object", () => {
    const fenced = `Here is my grading.\n\n\`\`\`json\n${JSON.stringify(answer, null, 2)}\n\`\`\`\nLet me know.`;
    expect(parseGraderAnswer(fenced, expectations).expectations.map((e) => e.passed)).toEqual([
      true,
      true,
      false,
    ]);
    const prose = `After reading the files {carefully}, my verdict: ${JSON.stringify(answer)} That is all.`;
    expect(parseGraderAnswer(prose, expectations).expectations.map((e) => e.passed)).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('coerces "PASS" / "FAIL" strings and a verdict field', () => {
    const text = JSON.stringify({
      expectations: [
        { text: expectations[0], passed: "PASS", evidence: "x" },
        { text: expectations[1], passed: "fail", evidence: "y" },
        { text: expectations[2], verdict: "FAIL", evidence: "z" },
      ],
    });
    expect(parseGraderAnswer(text, expectations).expectations.map((e) => e.passed)).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("matches verdicts by text whatever their order, and by position when the text was reworded", () => {
    const shuffled = JSON.stringify({
      expectations: [answer.expectations[2], answer.expectations[0], answer.expectations[1]],
    });
    const byText = parseGraderAnswer(shuffled, expectations);
    expect(byText.expectations.map((e) => [e.text, e.passed])).toEqual([
      [expectations[0], true],
      [expectations[1], true],
      [expectations[2], false],
    ]);
    const reworded = JSON.stringify({
      expectations: [
        { text: "Report lists all regions", passed: false, evidence: "a" },
        { text: expectations[1], passed: true, evidence: "b" },
        { text: "Chart present", passed: true, evidence: "c" },
      ],
    });
    const byPosition = parseGraderAnswer(reworded, expectations);
    expect(byPosition.expectations.map((e) => [e.text, e.passed])).toEqual([
      [expectations[0], false],
      [expectations[1], true],
      [expectations[2], true],
    ]);
  });

  it("fills defaults for what the judge left out", () => {
    const text = JSON.stringify({
      expectations: expectations.map((text) => ({ text, passed: true })),
      claims: [{ claim: "ok", verified: "PASS" }, "junk"],
    });
    const graded = parseGraderAnswer(text, expectations);
    expect(graded.expectations[0]!.evidence).toBe("(the judge gave no evidence)");
    expect(graded.claims).toEqual([{ claim: "ok", type: "factual", verified: true }]);
    expect(graded.user_notes_summary).toEqual({ uncertainties: [], needs_review: [], workarounds: [] });
    expect(graded.eval_feedback).toBeUndefined();
  });

  it("fails, naming the expectation, when one has no verdict", () => {
    const text = JSON.stringify({ expectations: answer.expectations.slice(0, 2) });
    expect(failure(text).message).toBe(`the judge gave no verdict for expectation 3: "${expectations[2]}"`);
  });

  it("fails on verdicts that match no expectation", () => {
    const text = JSON.stringify({
      expectations: [...answer.expectations, { text: "Something else", passed: true, evidence: "" }],
    });
    expect(failure(text).message).toContain('4 verdicts for 3 expectations (unmatched: "Something else")');
  });

  it("fails on answers without a usable object or verdict", () => {
    expect(failure("I could not grade this run.").message).toBe("the judge's answer holds no JSON object");
    expect(failure('{"verdicts": []}').message).toContain('no JSON object with an "expectations" array');
    const maybe = JSON.stringify({ expectations: [{ text: expectations[0], passed: "maybe" }] });
    expect(failure(maybe, [expectations[0]!]).message).toContain(
      "expectations[0].passed is not PASS or FAIL",
    );
  });
});
