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
  /** Runs whose cost is unknown (no price for their model): not in `usd`. */
  unpriced?: number;
}

/** Counts a finished run's cost into what the command has spent. */
export function spend(spending: Spending, usd: number | undefined): void {
  if (usd === undefined) spending.unpriced = (spending.unpriced ?? 0) + 1;
  else spending.usd += usd;
}

/** "$1.23", or "$1.23 + 2 runs of unknown cost". */
export function spentText(usd: number, unpriced: number | undefined, digits = 2): string {
  const unknown = unpriced ? ` + ${unpriced} run${unpriced === 1 ? "" : "s"} of unknown cost` : "";
  return `$${usd.toFixed(digits)}${unknown}`;
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
      ? `${spentText(spending.usd, spending.unpriced)} spent`
      : `${spentText(spending.usd, spending.unpriced)} of $${spending.maxUsd.toFixed(2)} (--max-cost)`,
  ];
  return parts.join(" · ");
}
