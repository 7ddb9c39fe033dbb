import type { AgentRunResult, ResultEvent, RunOutcome } from "../agent.js";
import { classifyAgentEnd } from "../classify-end.js";
import type { ProcessResult } from "../process/run-process.js";

const AUTH_PATTERN =
  /invalid api key|authentication|unauthori[sz]ed|please run \/login|not logged in|oauth token/i;

function fromResult(result: ResultEvent): { outcome: RunOutcome; message?: string } {
  if (!result.isError) return { outcome: "success" };
  const status = result.apiErrorStatus;
  const message = result.text || result.subtype;
  if (status === 429) return { outcome: "rate_limited", message };
  if (status === 529) return { outcome: "overloaded", message };
  if (status !== undefined && status >= 500) return { outcome: "server_error", message };
  if (status === 401 || status === 403 || (status === undefined && AUTH_PATTERN.test(result.text))) {
    return { outcome: "auth_error", message };
  }
  if (/overloaded/i.test(result.text)) return { outcome: "overloaded", message };
  if (/rate limit/i.test(result.text)) return { outcome: "rate_limited", message };
  if (/ECONNREFUSED|ECONNRESET|ETIMEDOUT|network|fetch failed|socket hang up/i.test(result.text)) {
    return { outcome: "server_error", message };
  }
  return { outcome: "agent_error", message };
}

/** How a Claude Code run ended, from the process's end and the stream's last `result` line. */
export function classifyEnd(
  proc: ProcessResult,
  result: ResultEvent | undefined,
): Pick<AgentRunResult, "outcome" | "message"> {
  return classifyAgentEnd(proc, result, { fromResult, authPattern: AUTH_PATTERN });
}
