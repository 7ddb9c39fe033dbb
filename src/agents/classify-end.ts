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

/** An agent's words for each way a model call fails, as its error results print them. */
export interface ErrorWords {
  rateLimited: RegExp;
  overloaded: RegExp;
  /** Also looked for in stderr when no result came. */
  auth: RegExp;
  /** A server it could not reach or that hung up. */
  unreachable: RegExp;
}

/** The usual reading of an error result: the HTTP status first, then the agent's words, in this order. */
export function resultByWords(
  result: ResultEvent,
  words: ErrorWords,
  authText = result.text || result.subtype,
): End {
  if (!result.isError) return { outcome: "success" };
  const status = result.apiErrorStatus;
  const message = result.text || result.subtype;
  if (status === 429 || words.rateLimited.test(message)) return { outcome: "rate_limited", message };
  if (status === 529 || status === 503 || words.overloaded.test(message))
    return { outcome: "overloaded", message };
  if (status !== undefined && status >= 500) return { outcome: "server_error", message };
  if (status === 401 || status === 403 || words.auth.test(authText))
    return { outcome: "auth_error", message };
  if (words.unreachable.test(message)) return { outcome: "server_error", message };
  return { outcome: "agent_error", message };
}

/** How a run ended for an agent whose error results read the usual way ({@link resultByWords}). */
export function classifyByWords(
  proc: ProcessResult,
  result: ResultEvent | undefined,
  words: ErrorWords,
): End {
  return classifyAgentEnd(proc, result, {
    fromResult: (r) => resultByWords(r, words),
    authPattern: words.auth,
  });
}
