import type { AgentRunResult, ResultEvent, RunOutcome } from "../agent.js";
import { classifyAgentEnd } from "../classify-end.js";
import type { ProcessResult } from "../process/run-process.js";

const AUTH_PATTERN =
  /ProviderAuthError|\b401\b|\b403\b|unauthori[sz]ed|invalid api key|incorrect api key|api key is missing|authentication/i;

function fromResult(result: ResultEvent): { outcome: RunOutcome; message?: string } {
  if (!result.isError) return { outcome: "success" };
  const status = result.apiErrorStatus;
  const message = result.text || result.subtype;
  if (status === 429 || /rate limit|too many requests/i.test(message))
    return { outcome: "rate_limited", message };
  if (status === 529 || status === 503 || /overloaded/i.test(message))
    return { outcome: "overloaded", message };
  if (status !== undefined && status >= 500) return { outcome: "server_error", message };
  if (status === 401 || status === 403 || AUTH_PATTERN.test(`${result.subtype} ${message}`))
    return { outcome: "auth_error", message };
  if (/ECONNREFUSED|ECONNRESET|ETIMEDOUT|fetch failed|connection refused|socket hang up/i.test(message))
    return { outcome: "server_error", message };
  return { outcome: "agent_error", message };
}

/** How an OpenCode run ended, from the process's end and the stream's last step or `error` line. */
export function classifyOpenCodeEnd(
  proc: ProcessResult,
  result: ResultEvent | undefined,
): Pick<AgentRunResult, "outcome" | "message"> {
  return classifyAgentEnd(proc, result, { fromResult, authPattern: AUTH_PATTERN });
}
