import type { AgentRunResult, ResultEvent } from "../agent.js";
import { classifyByWords, type ErrorWords } from "../classify-end.js";
import type { ProcessResult } from "../process/run-process.js";

const WORDS: ErrorWords = {
  rateLimited: /rate limit|too many requests/i,
  overloaded: /overloaded/i,
  auth: /\b401\b|\b403\b|unauthori[sz]ed|not (?:logged|signed) in|no authentication|authenticate|copilot (?:access|subscription)/i,
  unreachable: /ECONNREFUSED|ECONNRESET|ETIMEDOUT|fetch failed|connection refused|network/i,
};

/** How a Copilot CLI run ended, from the process's end and the stream's `result` (with the `session.error` before it). */
export function classifyCopilotEnd(
  proc: ProcessResult,
  result: ResultEvent | undefined,
): Pick<AgentRunResult, "outcome" | "message"> {
  return classifyByWords(proc, result, WORDS);
}
