import type { AgentRunResult, ResultEvent } from "../agent.js";
import { classifyAgentEnd, type ErrorWords, resultByWords } from "../classify-end.js";
import type { ProcessResult } from "../process/run-process.js";

const WORDS: ErrorWords = {
  rateLimited: /rate limit|too many requests/i,
  overloaded: /overloaded/i,
  auth: /ProviderAuthError|\b401\b|\b403\b|unauthori[sz]ed|invalid api key|incorrect api key|api key is missing|authentication/i,
  unreachable: /ECONNREFUSED|ECONNRESET|ETIMEDOUT|fetch failed|connection refused|socket hang up/i,
};

/** How an OpenCode run ended, from the process's end and the stream's last step or `error` line. */
export function classifyOpenCodeEnd(
  proc: ProcessResult,
  result: ResultEvent | undefined,
): Pick<AgentRunResult, "outcome" | "message"> {
  // OpenCode names a refused login in the error's type (its subtype), not always in the message.
  return classifyAgentEnd(proc, result, {
    fromResult: (r) => resultByWords(r, WORDS, `${r.subtype} ${r.text || r.subtype}`),
    authPattern: WORDS.auth,
  });
}
