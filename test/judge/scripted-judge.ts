import type { Judge, JudgeRequest, JudgeResponse } from "../../src/judge/judge.js";

/** One answer of a {@link scriptedJudge}: its text and what it cost. */
export interface ScriptedAnswer {
  text: string;
  costUsd: number;
}

/**
 * A judge in the test's own process that gives the listed answers in turn (a string costs $0.01; an Error is thrown),
 * honours an aborted signal, and keeps every request it got.
 */
export function scriptedJudge(
  answers: readonly (string | ScriptedAnswer | Error)[],
): Judge & { requests: JudgeRequest[] } {
  const requests: JudgeRequest[] = [];
  return {
    backend: "sim",
    model: "scripted",
    simulated: true,
    requests,
    async complete(request): Promise<JudgeResponse> {
      request.signal?.throwIfAborted();
      requests.push(request);
      const answer = answers[requests.length - 1] ?? "no answer left";
      if (answer instanceof Error) throw answer;
      const { text, costUsd } = typeof answer === "string" ? { text: answer, costUsd: 0.01 } : answer;
      return { text, costUsd, model: "scripted", inputTokens: 1, outputTokens: 1, durationMs: 1 };
    },
  };
}
