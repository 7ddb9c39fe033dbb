import type { AgentRunResult, ResultEvent, RunOutcome } from "../agent.js";
import { classifyAgentEnd } from "../classify-end.js";
import type { ProcessResult } from "../process/run-process.js";

const AUTH_PATTERN =
  /\b401\b|\b403\b|unauthori[sz]ed|invalid api key|incorrect api key|no codex credentials|codex login|not logged in|missing (?:api key|environment variable)/i;

function fromResult(result: ResultEvent): { outcome: RunOutcome; message?: string } {
  if (!result.isError) return { outcome: "success" };
  const status = result.apiErrorStatus;
  const message = result.text || result.subtype;
  if (status === 429) return { outcome: "rate_limited", message };
  if (status === 529) return { outcome: "overloaded", message };
  if (status !== undefined && status >= 500) return { outcome: "server_error", message };
  if (status === 401 || status === 403 || (status === undefined && AUTH_PATTERN.test(result.text)))
    return { outcome: "auth_error", message };
  if (/overloaded/i.test(result.text)) return { outcome: "overloaded", message };
  if (/rate limit|too many requests/i.test(result.text)) return { outcome: "rate_limited", message };
  // Codex's words for a 5xx answer, and for a server it could not reach.
  if (
    /high demand|stream disconnected|error sending request|connection refused|timed out|network/i.test(
      result.text,
    )
  )
    return { outcome: "server_error", message };
  return { outcome: "agent_error", message };
}

/** How a Codex run ended, from the process's end and the stream's `turn.completed` or `turn.failed`. */
export function classifyCodexEnd(
  proc: ProcessResult,
  result: ResultEvent | undefined,
): Pick<AgentRunResult, "outcome" | "message"> {
  return classifyAgentEnd(proc, result, { fromResult, authPattern: AUTH_PATTERN });
}
