import type { AgentRunResult, ResultEvent, RunOutcome } from "../agent.js";
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
  if (proc.cancelled) return { outcome: "cancelled", message: "cancelled by the user" };
  if (proc.stopped) return { outcome: "stopped" };
  if (proc.timedOut)
    return { outcome: "timeout", message: `timed out after ${Math.round(proc.durationMs / 1000)} s` };
  if (proc.spawnError) return { outcome: "crash", message: `could not start the agent: ${proc.spawnError}` };
  if (result) return fromResult(result);
  const tail = proc.stderrTail.trim().split("\n").slice(-3).join(" | ");
  if (AUTH_PATTERN.test(proc.stderrTail)) return { outcome: "auth_error", message: tail };
  const how = proc.signal ? `was killed by ${proc.signal}` : `exited with code ${proc.exitCode}`;
  return { outcome: "crash", message: `the agent ${how} without a result${tail ? `: ${tail}` : ""}` };
}
