import { type Budget, reserveRun, settleRun } from "./budget.js";
import { runPool } from "./pool.js";

/** The start and end of each planned run, as the eval and the trigger reporters hear them. */
export interface RunLifecycle<S, R> {
  /** Only for a run that is run now, not for one finished in an earlier attempt. */
  onRunStart?(spec: S): void;
  /** Every planned run ends here once, a run finished in an earlier attempt too. */
  onRunEnd?(record: R): void;
}

export interface ScheduleOptions<S, R> {
  concurrency: number;
  signal?: AbortSignal;
  /** Stops starting runs before this spending limit would be crossed. */
  budget?: Budget;
  reporter?: RunLifecycle<S, R>;
  /** The record of a run finished in an earlier, interrupted invocation, which is not run again. */
  finishedEarlier: (spec: S) => Promise<R | undefined>;
  run: (spec: S) => Promise<R>;
  /** What a run spent, settled against the budget once it ends. */
  costOf: (record: R) => number;
}

/** Runs the planned specs `concurrency` at a time, until all ran, the user cancelled, or the budget would run out. */
export function scheduleRuns<S, R>(specs: readonly S[], options: ScheduleOptions<S, R>): Promise<R[]> {
  return runPool(
    specs,
    options.concurrency,
    async (spec) => {
      let record = await options.finishedEarlier(spec);
      if (!record) {
        options.reporter?.onRunStart?.(spec);
        record = await options.run(spec);
      }
      settleRun(options.budget, options.costOf(record));
      options.reporter?.onRunEnd?.(record);
      return record;
    },
    options.signal,
    () => reserveRun(options.budget),
  );
}
