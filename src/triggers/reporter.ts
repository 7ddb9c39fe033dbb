import type { TriggerRunSpec } from "./plan.js";
import type { TriggerRunRecord } from "./run-trigger.js";

/** Progress of a trigger eval; every hook optional. */
export interface TriggerReporter {
  onPlan?(info: {
    triggersDir: string;
    total: number;
    resumed: boolean;
    simulated: boolean;
    /** Side by side (`--conditions clean,real`): which set of runs starts. */
    condition?: "clean" | "real";
  }): void;
  /** Not for a run finished in an earlier attempt: that one only ends. */
  onRunStart?(spec: TriggerRunSpec): void;
  onRunRetry?(spec: TriggerRunSpec, info: { attempt: number; outcome: string; delayMs: number }): void;
  /** A queued run not started because its query's verdict was already settled; it never ends. */
  onRunDropped?(spec: TriggerRunSpec): void;
  /** Every planned run ends here once, a run finished in an earlier attempt too (`record.skipped`). */
  onRunEnd?(record: TriggerRunRecord): void;
  /** Something the user should know that changes how the runs are made (e.g. replay switched off). */
  onWarning?(message: string): void;
}
