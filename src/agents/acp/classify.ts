import type { AgentRunResult, ResultEvent } from "../agent.js";
import { classifyByWords, type ErrorWords } from "../classify-end.js";
import type { ProcessResult } from "../process/run-process.js";

// Words of the agents that speak ACP (Gemini CLI, Qwen Code, …) for each way a model call fails.
const WORDS: ErrorWords = {
  rateLimited: /RESOURCE_EXHAUSTED|rate.?limit|too many requests|quota/i,
  overloaded: /overloaded|UNAVAILABLE/,
  auth: /authentication required|api key not valid|invalid api key|incorrect api key|API_KEY_INVALID|UNAUTHENTICATED|PERMISSION_DENIED|invalid auth method|unauthori[sz]ed|\b401\b/i,
  unreachable: /ECONNREFUSED|ECONNRESET|ETIMEDOUT|fetch failed|socket hang up|connection error/i,
};

/** How an ACP run ended, from the process's end and the prompt turn's end (its response or the error it gave). */
export function classifyAcpEnd(
  proc: ProcessResult,
  result: ResultEvent | undefined,
): Pick<AgentRunResult, "outcome" | "message"> {
  return classifyByWords(proc, result, WORDS);
}
