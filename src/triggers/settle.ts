import { passes, type TriggerRunResult } from "./score.js";

/** What a query has so far: runs done (errored ones included) and, of the scored ones, how many triggered. */
export interface QueryTally {
  done: number;
  scored: number;
  triggers: number;
}

export interface SettleRule {
  shouldTrigger: boolean;
  threshold: number;
  /** `--runs`: the most runs the query gets. */
  maxRuns: number;
}

/**
 * True when no outcome of the remaining runs can change the query's pass/fail. Whatever they bring (trigger, no
 * trigger or error), the final rate lies between all-not-triggering and all-triggering, so the verdict is settled
 * when both ends agree. A query with no scored run yet is never settled: its verdict could still be "no verdict".
 */
export function isSettled(tally: QueryTally, rule: SettleRule): boolean {
  const remaining = Math.max(0, rule.maxRuns - tally.done);
  if (remaining === 0) return true;
  if (tally.scored === 0) return false;
  const total = tally.scored + remaining;
  const { shouldTrigger, threshold } = rule;
  return (
    passes(tally.triggers / total, shouldTrigger, threshold) ===
    passes((tally.triggers + remaining) / total, shouldTrigger, threshold)
  );
}

export function tallyOf(runs: readonly TriggerRunResult[]): QueryTally {
  const scored = runs.filter((r) => r.error === undefined);
  return { done: runs.length, scored: scored.length, triggers: scored.filter((r) => r.triggered).length };
}

/** Follows each query's runs as they end, and says which queries need no more. */
export interface SettleTracker {
  record(run: TriggerRunResult): void;
  settled(queryIndex: number): boolean;
  /** Runs of the query that ended (errored ones included). */
  done(queryIndex: number): number;
}

export function createSettleTracker(rules: readonly SettleRule[]): SettleTracker {
  const runs = rules.map((): TriggerRunResult[] => []);
  return {
    record: (run) => runs[run.queryIndex]?.push(run),
    settled: (queryIndex) => {
      const rule = rules[queryIndex];
      return rule !== undefined && isSettled(tallyOf(runs[queryIndex] ?? []), rule);
    },
    done: (queryIndex) => runs[queryIndex]?.length ?? 0,
  };
}

/**
 * The next trigger run to start, so that a query whose verdict is still open gets its deciding run at once rather
 * than after every other query's first runs: first a later run whose query has all its earlier runs back (it either
 * decides the query or, settled, is dropped at no cost), then a first run, then a second run; a later run whose
 * query's earlier runs are still out waits (-1): they may settle the query and make it unneeded.
 */
export function nextTriggerRun(
  pending: readonly { queryIndex: number; runNumber: number }[],
  tracker: Pick<SettleTracker, "done">,
): number {
  const ready = pending.findIndex((s) => s.runNumber > 1 && tracker.done(s.queryIndex) >= s.runNumber - 1);
  if (ready >= 0) return ready;
  const first = pending.findIndex((s) => s.runNumber === 1);
  if (first >= 0) return first;
  return pending.findIndex((s) => s.runNumber === 2);
}

interface SettleSpec {
  queryIndex: number;
  runNumber: number;
}

/**
 * The scheduler's hooks that stop each query once its verdict is settled. The runs of a query not yet taken are
 * dropped the moment the query settles, told to `onDropped` before the run that settled it is reported, so that
 * progress counts the work as it is; a dropped run is neither served nor started. Runs `kept` (finished in an
 * earlier attempt at this iteration) are never dropped: they count as before.
 */
export function settleSchedule<
  S extends SettleSpec,
  R extends TriggerRunResult & { outcome: string },
>(input: {
  specs: readonly S[];
  rules: readonly SettleRule[];
  kept: ReadonlySet<S>;
  finishedEarlier: (spec: S) => Promise<R | undefined>;
  onDropped?: (spec: S) => void;
}) {
  const tracker = createSettleTracker(input.rules);
  const taken = new Set<S>();
  const dropped = new Set<S>();
  const drop = (spec: S) => {
    dropped.add(spec);
    input.onDropped?.(spec);
  };
  return {
    async finishedEarlier(spec: S): Promise<R | undefined> {
      if (dropped.has(spec)) return undefined;
      taken.add(spec);
      return input.finishedEarlier(spec);
    },
    /** Told of every run that ends, before the reporter is. */
    ended(record: R): void {
      if (record.outcome === "cancelled") return;
      tracker.record(record);
      if (!tracker.settled(record.queryIndex)) return;
      for (const spec of input.specs)
        if (
          spec.queryIndex === record.queryIndex &&
          !taken.has(spec) &&
          !dropped.has(spec) &&
          !input.kept.has(spec)
        )
          drop(spec);
    },
    // A run taken just before its query settled (its store lookup still out) is dropped here, as late as that.
    skip(spec: S): boolean {
      if (dropped.has(spec)) return true;
      if (!tracker.settled(spec.queryIndex)) return false;
      drop(spec);
      return true;
    },
    pick: (pending: readonly S[]) => nextTriggerRun(pending, tracker),
  };
}

/** The runs a trigger eval did not make because their query's verdict was settled without them. */
export function runsSettledAway(results: {
  all_runs?: boolean | undefined;
  runs_per_query?: number | undefined;
  results: readonly { runs: number }[];
}): number {
  const most = results.runs_per_query;
  if (results.all_runs !== false || most === undefined) return 0;
  return results.results.reduce((n, q) => n + Math.max(0, most - q.runs), 0);
}
