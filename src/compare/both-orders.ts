import type { Comparison } from "../contracts/comparison.js";
import { withEarlierCost } from "../judge/judge.js";
import type { Rng } from "./blind.js";
import { type CompareRunsOptions, type ComparisonResult, compareRuns } from "./comparator.js";

/**
 * One verdict from two: the same runs shown A/B and B/A. When the winning run changes with the order, the judge
 * followed the position, not the outputs: the verdict is a tie flagged `position_bias`. Otherwise the first order's
 * comparison stands, flagged `position_bias: false`.
 */
export function reconcileOrders(first: ComparisonResult, second: ComparisonResult): ComparisonResult {
  if (first.winnerRunDir === second.winnerRunDir) {
    return { ...first, comparison: { ...first.comparison, position_bias: false } };
  }
  const comparison: Comparison = {
    ...first.comparison,
    winner: "TIE",
    reasoning:
      `Position-inconsistent: shown in one order the judge chose ${first.comparison.winner}, shown in the other ` +
      `its verdict named the other run (or a tie), so the order decided, not the outputs. Recorded as a tie. ` +
      `First order's reasoning: ${first.comparison.reasoning}`,
    position_bias: true,
  };
  return { ...first, comparison, winnerRunDir: null };
}

// The second showing takes the labels the first did not: the run shown first is now shown second.
const otherOrder =
  (first: ComparisonResult): Rng =>
  () =>
    first.labels.A === "first" ? 0.99 : 0;

/** Compares in both orders (twice the comparator's calls, twice its cost) and reconciles the two verdicts. */
export async function compareBothOrders(options: CompareRunsOptions): Promise<ComparisonResult> {
  const first = await compareRuns(options);
  const second = await compareRuns({ ...options, rng: otherOrder(first) }).catch((error: unknown) => {
    throw withEarlierCost(error, first.costUsd);
  });
  return { ...reconcileOrders(first, second), costUsd: first.costUsd + second.costUsd };
}
