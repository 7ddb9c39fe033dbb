import type { RunSpec } from "./plan.js";
import type { RunRecord } from "./run-record.js";

/** Progress flows out of the library as events; the CLI decides how to show them. Every hook is optional. */
export interface RunReporter {
  onPlan?(info: {
    iterationDir: string;
    total: number;
    skipped: number;
    resumed: boolean;
    simulated: boolean;
  }): void;
  /** `--adaptive` added a round: one more paired run for each of these evals (their difference is still uncertain). */
  onMoreRuns?(info: { added: number; evals: string[] }): void;
  /** Not for a run finished in an earlier attempt: that one only ends. */
  onRunStart?(spec: RunSpec): void;
  onRunRetry?(spec: RunSpec, info: { attempt: number; outcome: string; delayMs: number }): void;
  /** The agent has finished and its run is being graded (checks, then the judge); also an earlier run on resume. */
  onGradeStart?(spec: RunSpec): void;
  onGradeEnd?(spec: RunSpec, info: { judgeCostUsd?: number; failed: boolean }): void;
  /** Every planned run ends here once, a run finished in an earlier attempt too (`record.skipped`). */
  onRunEnd?(record: RunRecord): void;
}
