import type { Redactor } from "../redact.js";
import type { AgentRunResult, InitEvent, ResultEvent } from "./agent.js";
import type { AgentEvent } from "./events.js";
import type { ProcessResult } from "./process/run-process.js";

/** What one agent process left: its events, the process's end, and how the adapter reads that end. */
export interface FinishedRun {
  proc: ProcessResult;
  events: AgentEvent[];
  init: InitEvent | undefined;
  result: ResultEvent | undefined;
  redactor: Redactor;
  classify(proc: ProcessResult, result: ResultEvent | undefined): Pick<AgentRunResult, "outcome" | "message">;
  sandbox?: AgentRunResult["sandbox"] | undefined;
}

/**
 * A run's result, whichever way its agent spoke: the outcome the adapter reads, masked text, and no verdict for a
 * run told to stop (time limit, cancel), which may still end its turn or print a closing result.
 */
export function runResultOf(run: FinishedRun): AgentRunResult {
  const { proc, result, redactor } = run;
  const end = run.classify(proc, result);
  const verdict = end.outcome === "timeout" || end.outcome === "cancelled" ? undefined : result;
  return {
    outcome: end.outcome,
    ...(end.message !== undefined ? { message: redactor.text(end.message) } : {}),
    events: run.events,
    ...(run.init ? { init: run.init } : {}),
    ...(verdict ? { result: verdict } : {}),
    process: { ...proc, stderrTail: redactor.text(proc.stderrTail) },
    ...(run.sandbox ? { sandbox: run.sandbox } : {}),
  };
}
