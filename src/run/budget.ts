/**
 * A spending limit shared by the runs of one command (`--max-cost`): a run starts only if what was spent, plus what
 * the runs in flight and this one are expected to cost, stays within the limit.
 */
export interface Budget {
  readonly maxUsd: number;
  /** Expected cost of one run, from earlier iterations or a default. */
  readonly estimateUsd: number;
  spentUsd: number;
  inFlight: number;
  /** Set once a run was held back for the limit. */
  exhausted: boolean;
}

export function createBudget(maxUsd: number, estimateUsd: number): Budget {
  return { maxUsd, estimateUsd, spentUsd: 0, inFlight: 0, exhausted: false };
}

export function reserveRun(budget: Budget | undefined): boolean {
  if (!budget) return true;
  if (budget.spentUsd + (budget.inFlight + 1) * budget.estimateUsd > budget.maxUsd) {
    budget.exhausted = true;
    return false;
  }
  budget.inFlight++;
  return true;
}

export function settleRun(budget: Budget | undefined, costUsd: number): void {
  if (!budget) return;
  budget.inFlight = Math.max(0, budget.inFlight - 1);
  budget.spentUsd += costUsd;
}
