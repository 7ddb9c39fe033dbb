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
  onRunStart?(spec: RunSpec): void;
  onRunRetry?(spec: RunSpec, info: { attempt: number; outcome: string; delayMs: number }): void;
  onRunEnd?(record: RunRecord): void;
}
