import { describe, expect, it } from "vitest";
import { Grading } from "../../src/contracts/grading.js";
import { parseGraderAnswer } from "../../src/judge/grader.js";
import { coercePassed } from "../../src/judge/grader-answer.js";
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

describe("coercePassed", () => {
  it("reads booleans and the words for PASS and FAIL, whatever their case and surrounding space", () => {
    for (const word of ["pass", "passed", "true", "yes", " PASS\n", "Passed", "TRUE", " Yes "])
      expect([word, coercePassed(word)]).toEqual([word, true]);
    for (const word of ["fail", "failed", "false", "no", "\tFAIL ", "Failed", "FALSE", " No "])
      expect([word, coercePassed(word)]).toEqual([word, false]);
    expect([coercePassed(true), coercePassed(false)]).toEqual([true, false]);
  });

  it("reads nothing else", () => {
    for (const value of ["", "maybe", "partial", "passes", "1", 1, 0, null, undefined, {}, ["pass"]])
      expect(coercePassed(value)).toBeUndefined();
  });
});

describe("parseGraderAnswer, entry by entry", () => {
  const verdict = (text: string, passed: unknown, evidence = "e") => ({ text, passed, evidence });

  it("fails on a verdict that is not an object, naming its place", () => {
    for (const entry of [null, "PASS", 3, [true]]) {
      const text = JSON.stringify({ expectations: [verdict(expectations[0]!, true), entry] });
      expect(failure(text, expectations.slice(0, 2)).message).toBe(
        "the judge's answer: expectations[1] is not an object",
      );
    }
  });

  it("reads a verdict from a passed, verdict or result field, and a word with space around it", () => {
    const text = JSON.stringify({
      expectations: [
        { text: expectations[0], result: " yes " },
        { text: expectations[1], verdict: "No" },
        { text: expectations[2], passed: "\tpassed\n" },
      ],
    });
    expect(parseGraderAnswer(text, expectations).expectations.map((e) => e.passed)).toEqual([
      true,
      false,
      true,
    ]);
  });

  it("counts evidence of only white space as none", () => {
    const text = JSON.stringify({ expectations: [verdict(expectations[0]!, true, " \n\t ")] });
    expect(parseGraderAnswer(text, [expectations[0]!]).expectations[0]!.evidence).toBe(
      "(the judge gave no evidence)",
    );
  });

  it("matches a verdict's text ignoring case and runs of white space at either end or inside", () => {
    const text = JSON.stringify({
      expectations: [
        verdict("the north   total\nis 1,200", true, "north"),
        verdict("The report lists every region ", true, "regions"),
        verdict("  a CHART is\tincluded \n", false, "no chart"),
      ],
    });
    expect(
      parseGraderAnswer(text, expectations).expectations.map((e) => [e.text, e.passed, e.evidence]),
    ).toEqual([
      [expectations[0], true, "regions"],
      [expectations[1], true, "north"],
      [expectations[2], false, "no chart"],
    ]);
  });

  it("tells apart expectations that differ only by a space, or by ß and ss", () => {
    const list = ["The page has a log in button", "The page has a login button", "Straße", "STRASSE"];
    const text = JSON.stringify({
      expectations: [
        verdict(list[1]!, false),
        verdict(list[0]!, true),
        verdict(list[3]!, false),
        verdict(list[2]!, true),
      ],
    });
    expect(parseGraderAnswer(text, list).expectations.map((e) => [e.text, e.passed])).toEqual([
      [list[0], true],
      [list[1], false],
      [list[2], true],
      [list[3], false],
    ]);
  });

  it("fails on a verdict left over after matching by text and by position, naming each unmatched one", () => {
    const list: [string, string] = [expectations[0]!, expectations[1]!];
    const oneLeft = JSON.stringify({
      expectations: [
        verdict("Reworded first", true),
        verdict("Something else", true),
        verdict(list[1], false),
      ],
    });
    expect(failure(oneLeft, list).message).toBe(
      'the judge gave 3 verdicts for 2 expectations (unmatched: "Something else")',
    );
    const twoLeft = JSON.stringify({
      expectations: [
        verdict(list[0], true),
        verdict(list[1], true),
        { passed: true },
        verdict("Other", false),
      ],
    });
    expect(failure(twoLeft, list).message).toBe(
      'the judge gave 4 verdicts for 2 expectations (unmatched: "", "Other")',
    );
  });

  it("reads claims: objects with a claim, unverified unless it says so", () => {
    const text = JSON.stringify({
      expectations: [verdict(expectations[0]!, true)],
      claims: [
        null,
        7,
        { type: "process" },
        { claim: "Used the script", type: "process", verified: "yes", evidence: "step 2" },
        { claim: "Totals are right" },
        { claim: "Fields are right", verified: "unsure", type: 3, evidence: 4 },
        { claim: "No chart", verified: false },
      ],
    });
    expect(parseGraderAnswer(text, [expectations[0]!]).claims).toEqual([
      { claim: "Used the script", type: "process", verified: true, evidence: "step 2" },
      { claim: "Totals are right", type: "factual", verified: false },
      { claim: "Fields are right", type: "factual", verified: false },
      { claim: "No chart", type: "factual", verified: false },
    ]);
  });

  it("keeps only the strings of the executor's notes", () => {
    const text = JSON.stringify({
      expectations: [verdict(expectations[0]!, true)],
      user_notes_summary: {
        uncertainties: ["South may be stale", 3, null, { note: "x" }],
        needs_review: "not a list",
        workarounds: [true, "Used a copy of the file"],
      },
    });
    expect(parseGraderAnswer(text, [expectations[0]!]).user_notes_summary).toEqual({
      uncertainties: ["South may be stale"],
      needs_review: [],
      workarounds: ["Used a copy of the file"],
    });
  });

  it("keeps eval feedback with a suggestion or an overall note, and leaves out an empty one", () => {
    const graded = (eval_feedback: unknown) =>
      parseGraderAnswer(JSON.stringify({ expectations: [verdict(expectations[0]!, true)], eval_feedback }), [
        expectations[0]!,
      ]).eval_feedback;
    expect(graded({ suggestions: [{ reason: "Check the values" }] })).toEqual({
      suggestions: [{ reason: "Check the values" }],
      overall: "",
    });
    expect(graded({ suggestions: "none", overall: "Fine as it is." })).toEqual({
      suggestions: [],
      overall: "Fine as it is.",
    });
    expect(
      graded({
        suggestions: [null, "x", { assertion: 3, reason: "Too weak" }, { assertion: "A", reason: 4 }],
        overall: 5,
      }),
    ).toEqual({ suggestions: [{ reason: "Too weak" }], overall: "" });
    expect(graded({})).toBeUndefined();
    expect(graded({ suggestions: [], overall: "" })).toBeUndefined();
    expect(graded({ suggestions: [{ assertion: "A" }] })).toBeUndefined();
    expect(graded("Looks fine")).toBeUndefined();
  });
});
