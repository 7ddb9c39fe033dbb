import { describe, expect, it } from "vitest";
import { judgeGrader } from "../../src/grade/judge-grader.js";
import type { JudgeInput } from "../../src/grade/judge-input.js";
import type { Judge, JudgeRequest, JudgeResponse } from "../../src/judge/judge.js";

const input: JudgeInput = {
  prompt: "Write hi.txt saying hi",
  expectations: ["hi.txt says hi"],
  outputs: [{ path: "hi.txt", content: "hi" }],
  transcript: "Wrote hi.txt",
  runDir: "/runs/eval-1/with_skill/run-1",
};

const verdict = { text: "hi.txt says hi", passed: true, evidence: "hi.txt: hi" };

// A judge with one answer, keeping the requests it got.
function judgeAnswering(
  answer: Record<string, unknown>,
  extra: Partial<JudgeResponse> = {},
): Judge & { requests: JudgeRequest[] } {
  const requests: JudgeRequest[] = [];
  return {
    backend: "openai",
    model: "grader-model",
    simulated: false,
    requests,
    async complete(request) {
      requests.push(request);
      return {
        text: JSON.stringify(answer),
        model: "grader-model-2026",
        inputTokens: 10,
        outputTokens: 5,
        costUsd: 0.25,
        durationMs: 10,
        ...extra,
      };
    },
  };
}

describe("judgeGrader", () => {
  it("gives the judge's verdicts, claims and notes, with the model, backend and cost", async () => {
    const judge = judgeAnswering({
      expectations: [verdict],
      claims: [{ claim: "hi.txt exists", type: "factual", verified: true, evidence: "listed" }],
      user_notes_summary: { uncertainties: ["the case of hi"], needs_review: [], workarounds: [] },
    });
    expect(await judgeGrader(judge)(input)).toEqual({
      expectations: [verdict],
      claims: [{ claim: "hi.txt exists", type: "factual", verified: true, evidence: "listed" }],
      user_notes_summary: { uncertainties: ["the case of hi"], needs_review: [], workarounds: [] },
      model: "grader-model-2026",
      backend: "openai",
      costUsd: 0.25,
    });
  });

  it("passes on the judge's feedback on the eval and what it was refused", async () => {
    const judge = judgeAnswering(
      {
        expectations: [verdict],
        eval_feedback: { suggestions: [{ reason: "too easy" }], overall: "tighten it" },
      },
      { refused: ["write hi.txt: read-only"] },
    );
    const verdicts = await judgeGrader(judge)(input);
    expect(verdicts.eval_feedback).toEqual({ suggestions: [{ reason: "too easy" }], overall: "tighten it" });
    expect(verdicts.refused).toEqual(["write hi.txt: read-only"]);
  });

  it("shows the judge the expected output, and lets it work in the run folder under the caller's signal", async () => {
    const judge = judgeAnswering({ expectations: [verdict] });
    const signal = new AbortController().signal;
    await judgeGrader(judge, signal)({ ...input, expectedOutput: "A file hi.txt with the word hi" });
    expect(judge.requests).toHaveLength(1);
    const [request] = judge.requests as [JudgeRequest];
    expect(request.prompt).toContain("<expected_output>\nA file hi.txt with the word hi\n</expected_output>");
    expect(request.workspaceDir).toBe("/runs/eval-1/with_skill/run-1");
    expect(request.signal).toBe(signal);
  });

  it("asks without an expected output or a signal when there is none", async () => {
    const judge = judgeAnswering({ expectations: [verdict] });
    const verdicts = await judgeGrader(judge)(input);
    const [request] = judge.requests as [JudgeRequest];
    expect(request.prompt).not.toContain("<expected_output>");
    expect("signal" in request).toBe(false);
    expect(verdicts).not.toHaveProperty("eval_feedback");
    expect(verdicts).not.toHaveProperty("refused");
  });
});
