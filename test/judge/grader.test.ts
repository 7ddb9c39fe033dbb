import { describe, expect, it } from "vitest";
import { buildGraderPrompt, type GraderInput, gradeWithJudge } from "../../src/judge/grader.js";
import { type Judge, JudgeError, type JudgeRequest, type JudgeResponse } from "../../src/judge/judge.js";
import { scriptedJudge } from "./scripted-judge.js";

const input: GraderInput = {
  prompt: "Write hi.txt saying hi",
  expectations: ["hi.txt says hi"],
  outputs: [{ path: "hi.txt", content: "hi" }],
  transcript: "Wrote hi.txt",
};

const good = JSON.stringify({
  expectations: [{ text: "hi.txt says hi", passed: true, evidence: "hi.txt: hi" }],
});

// A judge giving these responses in turn, keeping the requests.
function answering(
  responses: (Partial<JudgeResponse> & { text: string })[],
): Judge & { requests: JudgeRequest[] } {
  const requests: JudgeRequest[] = [];
  return {
    backend: "sim",
    model: "listed",
    simulated: true,
    requests,
    async complete(request) {
      requests.push(request);
      const response = responses[requests.length - 1];
      if (!response) throw new Error("no response left");
      return {
        model: "listed",
        inputTokens: 10,
        outputTokens: 5,
        costUsd: 0.5,
        durationMs: 100,
        ...response,
      };
    },
  };
}

describe("gradeWithJudge", () => {
  it("asks once with the grader's prompt, and gives what the answer cost", async () => {
    const judge = scriptedJudge([good]);
    const { graded, response } = await gradeWithJudge(judge, input);
    expect(judge.requests).toEqual([buildGraderPrompt(input)]);
    expect(graded.expectations).toEqual([
      { text: "hi.txt says hi", passed: true, evidence: "hi.txt: hi", source: "judge" },
    ]);
    expect(response).toEqual({
      model: "scripted",
      costUsd: 0.01,
      inputTokens: 1,
      outputTokens: 1,
      durationMs: 1,
      attempts: 1,
    });
  });

  it("passes on the token limit, the run's folder and the signal", async () => {
    const judge = scriptedJudge([good]);
    const signal = new AbortController().signal;
    await gradeWithJudge(judge, input, { maxTokens: 500, workspaceDir: "/runs/1", signal });
    expect(judge.requests).toEqual([
      { ...buildGraderPrompt(input), maxTokens: 500, workspaceDir: "/runs/1", signal },
    ]);
    expect(judge.requests[0]!.signal).toBe(signal);
  });

  it("gives a judge that reads the run's folder short excerpts and where the files are", async () => {
    const excerpts = buildGraderPrompt(input, {
      perFileChars: 4_000,
      totalOutputChars: 12_000,
      transcriptChars: 6_000,
      filesOnDisk: { outputsDir: "outputs", transcriptFile: "transcript.md" },
    });
    const reader = { ...scriptedJudge([good]), readsWorkspace: true };
    await gradeWithJudge(reader, input, { workspaceDir: "/runs/1" });
    expect(reader.requests.map((r) => r.prompt)).toEqual([excerpts.prompt]);

    // Not without the folder, nor for a judge that does not read it, nor when the caller chose the prompt's limits.
    const noFolder = { ...scriptedJudge([good]), readsWorkspace: true };
    await gradeWithJudge(noFolder, input);
    const notReading = scriptedJudge([good]);
    await gradeWithJudge(notReading, input, { workspaceDir: "/runs/1" });
    expect([noFolder.requests[0]!.prompt, notReading.requests[0]!.prompt]).toEqual([
      buildGraderPrompt(input).prompt,
      buildGraderPrompt(input).prompt,
    ]);
    const chosen = { ...scriptedJudge([good]), readsWorkspace: true };
    await gradeWithJudge(chosen, input, { workspaceDir: "/runs/1", prompt: { transcriptChars: 3 } });
    expect(chosen.requests[0]!.prompt).toBe(buildGraderPrompt(input, { transcriptChars: 3 }).prompt);
  });

  it("asks again, saying what was wrong, and sums the attempts' cost, tokens, time and refusals", async () => {
    const judge = answering([
      {
        text: "I could not grade this.",
        durationMs: 5,
        costUsd: 0.25,
        refused: ["write outputs/x: read-only"],
      },
      { text: good, durationMs: 7, inputTokens: 20, outputTokens: 3, model: "listed-2" },
    ]);
    const { graded, response } = await gradeWithJudge(judge, input);
    const { system, prompt } = buildGraderPrompt(input);
    expect(judge.requests).toEqual([
      { system, prompt },
      {
        system,
        prompt: `${prompt}\n\nYour previous answer could not be used: the judge's answer holds no JSON object. Answer again with ONE JSON object only, exactly as asked above.`,
      },
    ]);
    expect(graded.expectations.map((e) => e.passed)).toEqual([true]);
    expect(response).toEqual({
      model: "listed-2",
      costUsd: 0.75,
      inputTokens: 30,
      outputTokens: 8,
      durationMs: 12,
      attempts: 2,
      refused: ["write outputs/x: read-only"],
    });
  });

  it("keeps every attempt's refusals, in order, and the first cost note", async () => {
    const judge = answering([
      { text: "no", refused: ["a"], costNote: "first note" },
      { text: good, refused: ["b", "c"], costNote: "second note" },
    ]);
    const { response } = await gradeWithJudge(judge, input);
    expect([response.refused, response.costNote]).toEqual([["a", "b", "c"], "first note"]);
  });

  it("fails after the tries it was given, with the last problem and the cost of them all", async () => {
    const once = answering([{ text: "nothing useful" }]);
    const error = await gradeWithJudge(once, input, { attempts: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeError);
    expect((error as JudgeError).message).toBe(
      "the judge's answer could not be read after 1 try: the judge's answer holds no JSON object",
    );
    expect([(error as JudgeError).retryable, (error as JudgeError).costUsd]).toEqual([false, 0.5]);
    expect(once.requests).toHaveLength(1);

    const twice = answering([{ text: "nothing useful" }, { text: '{"verdicts": []}' }]);
    const second = await gradeWithJudge(twice, input).catch((e: unknown) => e);
    expect((second as JudgeError).message).toBe(
      `the judge's answer could not be read after 2 tries: the judge's answer has no JSON object with an "expectations" array`,
    );
    expect((second as JudgeError).costUsd).toBe(1);
  });
});
