import type { ConcurrencyLimit } from "./adaptive-limit.js";
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
  /** Read before each start instead of `concurrency`: lowered under rate limits (see adaptive-limit.ts). */
  limit?: Pick<ConcurrencyLimit, "current">;
  signal?: AbortSignal;
  /** Stops starting runs before this spending limit would be crossed. */
  budget?: Budget;
  reporter?: RunLifecycle<S, R>;
  /** The record of a run finished in an earlier, interrupted invocation, which is not run again. */
  finishedEarlier: (spec: S) => Promise<R | undefined>;
  run: (spec: S) => Promise<R>;
  /** What a run spent, settled against the budget once it ends. */
  costOf: (record: R) => number;
  /** Asked just before a queued run would start: true drops it (its verdict is already settled). */
  skip?: (spec: S) => boolean;
  /** Which of the specs not yet started goes next, as an index into them (default: plan order). */
  pick?: (pending: readonly S[]) => number;
}

/** Runs the planned specs `concurrency` at a time, until all ran, the user cancelled, or the budget would run out. */
export async function scheduleRuns<S, R>(specs: readonly S[], options: ScheduleOptions<S, R>): Promise<R[]> {
  const { limit } = options;
  const records = await runPool(
    specs,
    limit ? () => limit.current() : options.concurrency,
    async (spec): Promise<R | undefined> => {
      let record = await options.finishedEarlier(spec);
      if (!record) {
        if (options.skip?.(spec)) {
          settleRun(options.budget, 0);
          return undefined;
        }
        options.reporter?.onRunStart?.(spec);
        record = await options.run(spec);
      }
      settleRun(options.budget, options.costOf(record));
      options.reporter?.onRunEnd?.(record);
      return record;
    },
    options.signal,
    () => reserveRun(options.budget),
    options.pick,
  );
  return records.filter((r): r is Awaited<R> => r !== undefined);
}
