import type { ReusedFrom } from "../contracts/store-entry.js";

export interface Savings {
  /** Runs copied from the result store. */
  reused: number;
  /** Runs made now. */
  ran: number;
  /** What the reused runs cost when they were made. */
  savedUsd: number;
}

/** Spent vs saved over the runs of one command: a reused run costs nothing now and saves what it cost then. */
export function savingsOf(
  runs: readonly { reusedFrom?: ReusedFrom; skipped: boolean; outcome: string }[],
): Savings {
  const reused = runs.filter((r) => r.reusedFrom !== undefined);
  return {
    reused: reused.length,
    ran: runs.filter((r) => !r.skipped && r.outcome !== "cancelled").length,
    savedUsd: reused.reduce((sum, r) => sum + (r.reusedFrom?.cost_usd ?? 0), 0),
  };
}
