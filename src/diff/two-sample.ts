import { type BootstrapOptions, mean, mulberry32, percentileBounds } from "../bench/statistics.js";
import type { DifferenceInterval } from "../contracts/diff.js";

/** One eval's graded with_skill pass rates in iteration A and in iteration B. */
export interface Samples {
  a: readonly number[];
  b: readonly number[];
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000 + 0;
}

function resampledMean(values: readonly number[], pick: (n: number) => number): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[pick(values.length)]!;
  return sum / values.length;
}

/**
 * Percentile bootstrap of mean(B) − mean(A) over groups (one per eval, weighed equally): each resample draws groups
 * with replacement, then each side's runs within a drawn group with replacement, A and B apart (the two iterations'
 * runs are independent; nothing pairs them). Null unless every group has at least two runs on each side: one run a
 * side shows no run-to-run noise, and an interval drawn from it would claim a certainty it has not.
 */
export function twoSampleBootstrap(
  groups: readonly Samples[],
  options: BootstrapOptions,
): DifferenceInterval | null {
  if (groups.length === 0 || groups.some((g) => g.a.length < 2 || g.b.length < 2)) return null;
  const random = mulberry32(options.seed);
  // random() < 1, so a draw is never past the last item.
  const pick = (n: number) => Math.floor(random() * n);
  const diffs = new Float64Array(options.resamples);
  // A typed array drops a write past its end, so one resample more would change nothing.
  // Stryker disable next-line EqualityOperator: equivalent, see above
  for (let r = 0; r < options.resamples; r++) {
    let total = 0;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[pick(groups.length)]!;
      total += resampledMean(group.b, pick) - resampledMean(group.a, pick);
    }
    diffs[r] = total / groups.length;
  }
  const { low, high } = percentileBounds(diffs, options.confidence);
  const estimate = mean(groups.map((g) => mean(g.b) - mean(g.a)));
  return {
    estimate: round(estimate),
    ci_low: round(low),
    ci_high: round(high),
    confidence: options.confidence,
  };
}
