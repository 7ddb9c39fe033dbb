import type { RunOutcome } from "../agents/agent.js";
import type { ReusedFrom } from "../contracts/store-entry.js";
import type { RunSpec } from "./plan.js";

/** What the executor tells about one finished run; the files in its run folder are the durable record. */
export interface RunRecord {
  spec: RunSpec;
  outcome: RunOutcome;
  error?: string;
  attempts: number;
  durationMs: number;
  tokens: number;
  /** 0 when unknown (see costUnknown), so that sums stay numbers. */
  costUsd: number;
  /** The agent reported tokens but no cost, and the price table does not know its model. */
  costUnknown?: boolean;
  skipped: boolean;
  /** Time spent by skillgym itself around the agent process (staging, collecting, writing). */
  overheadMs: number;
  /** What grading this run with a judge cost, when it was graded as it finished. */
  judgeCostUsd?: number;
  /** The run read the skill it should not have (activation.json says how); left out of the delta. */
  contaminated?: boolean;
  /** Copied from the result store instead of run: where it came from (its cost then is what it saved). */
  reusedFrom?: ReusedFrom;
}

export function isFinishedOutcome(outcome: RunOutcome): boolean {
  return (
    outcome === "success" ||
    outcome === "agent_error" ||
    outcome === "timeout" ||
    outcome === "stopped" ||
    outcome === "output_limit"
  );
}
