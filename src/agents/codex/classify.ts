import type { AgentRunResult, ResultEvent, RunOutcome } from "../agent.js";
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
