import { describe, expect, it } from "vitest";
import { type AmbiguousInput, suggestRewordings } from "../../src/compare/reword.js";
import { JudgeError } from "../../src/judge/judge.js";
import { scriptedJudge } from "../judge/scripted-judge.js";

const SHORT = "The report is short";
const QUOTED = 'It mentions "Q3"';

const items: AmbiguousInput[] = [
  {
    text: SHORT,
    reasons: ["the judges disagree", "sim:strict flipped"],
    verdicts: [
      "v1 PASS",
      "v2 FAIL",
      "v3 PASS",
      "v4 FAIL",
      "v5 PASS",
      `v6 FAIL: ${"x".repeat(500)}`,
      "v7 PASS",
    ],
  },
  { text: QUOTED, reasons: [], verdicts: [] },
];

function answer(rewordings: { text: string; suggestion: string }[]): string {
  return JSON.stringify({ rewordings });
}

describe("suggestRewordings", () => {
  it("asks nothing and costs nothing when no expectation is ambiguous", async () => {
    const judge = scriptedJudge([answer([])]);
    const result = await suggestRewordings(judge, []);
    expect(result).toEqual({ suggestions: new Map(), costUsd: 0 });
    expect(judge.requests).toHaveLength(0);
  });

  it("asks for all the expectations in one request, with what the graders said about each", async () => {
    const judge = scriptedJudge([answer([{ text: SHORT, suggestion: "report.md has at most 200 words" }])]);
    await suggestRewordings(judge, items);
    expect(judge.requests).toHaveLength(1);
    const request = judge.requests[0];
    expect(request?.system).toBe(
      "You are the analyzer of an eval suite. Graders disagreed about the expectations below, or changed their verdict " +
        "when asked again: each is probably worded so it can be read two ways. For each, suggest one clearer wording that " +
        "keeps its intent and that two careful graders would grade alike (name the file, value or exact words that show it). " +
        "Answer with exactly one JSON object and nothing else.",
    );
    expect(request?.maxTokens).toBe(4096);
    expect(request?.prompt).toBe(
      [
        "<skillgym-rewording>",
        "",
        "## The expectations",
        "",
        "<expectations>",
        "[",
        '  "The report is short",',
        '  "It mentions \\"Q3\\""',
        "]",
        "</expectations>",
        "",
        "## What the graders said",
        "",
        '1. "The report is short"',
        "   - the judges disagree",
        "   - sim:strict flipped",
        "   - v1 PASS",
        "   - v2 FAIL",
        "   - v3 PASS",
        "   - v4 FAIL",
        "   - v5 PASS",
        `   - v6 FAIL: ${"x".repeat(391)}`,
        '2. "It mentions \\"Q3\\""',
        "",
        "## Answer",
        "",
        '{"rewordings": [{"text": "<the expectation, as given>", "suggestion": "<a clearer wording>"}]}',
      ].join("\n"),
    );
  });

  it("keeps the suggestions for expectations it asked about, with what they cost", async () => {
    const judge = scriptedJudge([
      {
        text: answer([
          { text: SHORT, suggestion: "report.md has at most 200 words" },
          { text: "An expectation nobody asked about", suggestion: "Something" },
          { text: QUOTED, suggestion: 'report.md contains the string "Q3"' },
        ]),
        costUsd: 0.25,
      },
    ]);
    const result = await suggestRewordings(judge, items);
    expect(result).toEqual({
      suggestions: new Map([
        [SHORT, "report.md has at most 200 words"],
        [QUOTED, 'report.md contains the string "Q3"'],
      ]),
      costUsd: 0.25,
    });
  });

  it("asks again when a suggestion is empty", async () => {
    const judge = scriptedJudge([
      answer([{ text: SHORT, suggestion: "" }]),
      answer([{ text: SHORT, suggestion: "Under 200 words" }]),
    ]);
    const result = await suggestRewordings(judge, items);
    expect(result.suggestions).toEqual(new Map([[SHORT, "Under 200 words"]]));
    expect(result.costUsd).toBeCloseTo(0.02);
    expect(judge.requests).toHaveLength(2);
  });

  it("fails as the analyzer after two unusable answers", async () => {
    const judge = scriptedJudge(["I cannot say.", "Still no JSON."]);
    const error = await suggestRewordings(judge, items).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeError);
    expect((error as JudgeError).message).toBe(
      "the analyzer's answer could not be used after 2 attempts: it contains no JSON object",
    );
  });

  it("passes the signal on to the judge", async () => {
    const judge = scriptedJudge([answer([])]);
    const controller = new AbortController();
    controller.abort(new Error("stopped by the user"));
    await expect(suggestRewordings(judge, items, controller.signal)).rejects.toThrow("stopped by the user");
    expect(judge.requests).toHaveLength(0);
  });
});
