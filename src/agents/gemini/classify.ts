import type { AgentRunResult, ResultEvent, RunOutcome } from "../agent.js";
import { classifyAgentEnd } from "../classify-end.js";
import type { ProcessResult } from "../process/run-process.js";

const AUTH_PATTERN =
  /api key not valid|invalid api key|API_KEY_INVALID|UNAUTHENTICATED|PERMISSION_DENIED|invalid auth method|GEMINI_API_KEY/i;

function fromResult(result: ResultEvent): { outcome: RunOutcome; message?: string } {
  if (!result.isError) return { outcome: "success" };
  const status = result.apiErrorStatus;
  const message = result.text || result.subtype;
  if (status === 429 || /RESOURCE_EXHAUSTED|quota|rate limit/i.test(message))
    return { outcome: "rate_limited", message };
  if (status === 529 || status === 503 || /overloaded|UNAVAILABLE/.test(message))
    return { outcome: "overloaded", message };
  if (status !== undefined && status >= 500) return { outcome: "server_error", message };
  if (status === 401 || status === 403 || AUTH_PATTERN.test(message))
    return { outcome: "auth_error", message };
  if (/ECONNREFUSED|ECONNRESET|ETIMEDOUT|fetch failed|socket hang up/i.test(message))
    return { outcome: "server_error", message };
  return { outcome: "agent_error", message };
}

/** How a Gemini CLI run ended, from the process's end and the stream's last `result` line. */
export function classifyGeminiEnd(
  proc: ProcessResult,
  result: ResultEvent | undefined,
): Pick<AgentRunResult, "outcome" | "message"> {
  return classifyAgentEnd(proc, result, { fromResult, authPattern: AUTH_PATTERN });
}
