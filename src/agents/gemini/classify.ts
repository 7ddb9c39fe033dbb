import type { AgentRunResult, ResultEvent } from "../agent.js";
import { classifyByWords, type ErrorWords } from "../classify-end.js";
import type { ProcessResult } from "../process/run-process.js";

const WORDS: ErrorWords = {
  rateLimited: /RESOURCE_EXHAUSTED|quota|rate limit/i,
  overloaded: /overloaded|UNAVAILABLE/,
  auth: /api key not valid|invalid api key|API_KEY_INVALID|UNAUTHENTICATED|PERMISSION_DENIED|invalid auth method|GEMINI_API_KEY/i,
  unreachable: /ECONNREFUSED|ECONNRESET|ETIMEDOUT|fetch failed|socket hang up/i,
};

/** How a Gemini CLI run ended, from the process's end and the stream's last `result` line. */
export function classifyGeminiEnd(
  proc: ProcessResult,
  result: ResultEvent | undefined,
): Pick<AgentRunResult, "outcome" | "message"> {
  return classifyByWords(proc, result, WORDS);
}
