import type { AgentRunResult, ResultEvent } from "./agent.js";
import type { ProcessResult } from "./process/run-process.js";

type End = Pick<AgentRunResult, "outcome" | "message">;

export interface AgentEndRules {
  /** What the agent's own final result says about the run. */
  fromResult(result: ResultEvent): End;
  /** The agent's words for a refused login, looked for in stderr when no result came. */
  authPattern: RegExp;
}

/** How a run ended: the process's end first (cancel, stop, timeout, no start), then the agent's result, then stderr. */
export function classifyAgentEnd(
  proc: ProcessResult,
  result: ResultEvent | undefined,
  rules: AgentEndRules,
): End {
  if (proc.cancelled) return { outcome: "cancelled", message: "cancelled by the user" };
  if (proc.stopped) return { outcome: "stopped" };
  if (proc.timedOut)
    return { outcome: "timeout", message: `timed out after ${Math.round(proc.durationMs / 1000)} s` };
  if (proc.spawnError) return { outcome: "crash", message: `could not start the agent: ${proc.spawnError}` };
  if (result) return rules.fromResult(result);
  const tail = proc.stderrTail.trim().split("\n").slice(-3).join(" | ");
  if (rules.authPattern.test(proc.stderrTail)) return { outcome: "auth_error", message: tail };
  const how = proc.signal ? `was killed by ${proc.signal}` : `exited with code ${proc.exitCode}`;
  return { outcome: "crash", message: `the agent ${how} without a result${tail ? `: ${tail}` : ""}` };
}
