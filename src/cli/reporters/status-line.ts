/** What the live status counts for one batch of runs (eval runs or trigger runs). */
export interface Tally {
  label: string;
  total: number;
  done: number;
  /** Runs that finished after really running (not taken over from an earlier attempt): they measure the pace. */
  ran: number;
  running: number;
  grading: number;
  errors: number;
  cancelled: number;
  startedAt: number;
}

/** What a command has spent so far, shared by its reporters (eval runs, judges, trigger runs). */
export interface Spending {
  usd: number;
  maxUsd?: number;
}

export function newTally(label: string, total: number, now: number): Tally {
  return { label, total, done: 0, ran: 0, running: 0, grading: 0, errors: 0, cancelled: 0, startedAt: now };
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

// From the pace so far: the time between finished runs already reflects how many run at once.
export function timeLeftMs(tally: Tally, now: number): number | undefined {
  const left = tally.total - tally.done;
  if (tally.ran === 0 || left <= 0) return undefined;
  return ((now - tally.startedAt) / tally.ran) * left;
}

/** One line: runs done / running / grading / queued, elapsed, estimated time left, cost so far against the limit. */
export function statusText(tally: Tally, spending: Spending, now: number): string {
  const queued = Math.max(0, tally.total - tally.done - tally.running - tally.grading);
  const left = timeLeftMs(tally, now);
  const parts = [
    `${tally.label} ${tally.done}/${tally.total} done`,
    `${tally.running} running`,
    ...(tally.grading > 0 ? [`${tally.grading} grading`] : []),
    `${queued} queued`,
    ...(tally.errors > 0 ? [`${tally.errors} errors`] : []),
    ...(tally.cancelled > 0 ? [`${tally.cancelled} cancelled`] : []),
    `${formatDuration(now - tally.startedAt)} elapsed`,
    left === undefined ? "time left: estimating" : `about ${formatDuration(left)} left`,
    spending.maxUsd === undefined
      ? `$${spending.usd.toFixed(2)} spent`
      : `$${spending.usd.toFixed(2)} of $${spending.maxUsd.toFixed(2)} (--max-cost)`,
  ];
  return parts.join(" · ");
}
