import type { EffectVerdict, Verdict } from "../contracts/benchmark.js";

/** The smallest lift worth a verdict when none is given: a move of 0.05 in pass rate. */
export const DEFAULT_EFFECT_FLOOR = 0.05;

/** How much a baseline must already pass for a skill of no effect to be called redundant. */
export const REDUNDANT_BASELINE = 0.8;

// Past this many times today's runs, more runs are not a plan: the effect sits on the floor.
const MOST_RUNS_FACTOR = 25;

export interface Interval {
  estimate: number;
  ci_low: number;
  ci_high: number;
}

/**
 * The verdict an interval of the lift supports at an effect floor: `helps` when all of it lies above +floor,
 * `hurts` when all of it lies below −floor, `no effect` when all of it lies within ±floor (an equivalence, not a
 * failure to find a difference), else `inconclusive` (it straddles a floor).
 */
export function verdictOf(interval: Interval, floor: number): Verdict {
  if (interval.ci_low > floor) return "helps";
  if (interval.ci_high < -floor) return "hurts";
  if (interval.ci_low >= -floor && interval.ci_high <= floor) return "no effect";
  return "inconclusive";
}

/**
 * Roughly how many runs per configuration would likely decide an inconclusive interval: an interval narrows with
 * the square root of the runs, so it must shrink until it clears the floor on the side its estimate lies.
 * Undefined when the estimate sits on the floor (no number of runs is likely to decide it).
 */
export function runsToDecide(
  interval: Interval,
  floor: number,
  runsPerConfiguration: number,
): number | undefined {
  const halfWidth = (interval.ci_high - interval.ci_low) / 2;
  const margin = Math.abs(Math.abs(interval.estimate) - floor);
  if (halfWidth <= 0) return undefined;
  // An estimate on the floor (a margin of 0) would need infinitely many runs: past the limit below.
  const needed = Math.ceil(runsPerConfiguration * (halfWidth / margin) ** 2);
  if (needed > runsPerConfiguration * MOST_RUNS_FACTOR) return undefined;
  return Math.max(runsPerConfiguration + 1, needed);
}

/** The verdict with what backs it: the floor, and for an inconclusive one how many runs would likely decide it. */
export function effectVerdict(
  interval: Interval,
  floor: number,
  runsPerConfiguration: number,
): EffectVerdict {
  const verdict = verdictOf(interval, floor);
  if (verdict !== "inconclusive") return { verdict, floor };
  const runs = runsToDecide(interval, floor, runsPerConfiguration);
  return { verdict, floor, ...(runs !== undefined ? { runs_to_decide: runs } : {}) };
}

export interface RedundancyInput {
  /** The skill's verdict over all evals. */
  overall: Verdict;
  /** Each eval's verdict, where it has one. */
  perEval: readonly Verdict[];
  /** The baseline's mean pass rate over its graded runs. */
  baselinePassRate: number | undefined;
}

/**
 * A skill is redundant on this model when it changes nothing measurable (no effect overall and on every eval that
 * has a verdict) while the baseline already passes: the model does the job without it.
 */
export function isRedundant(input: RedundancyInput): boolean {
  if (input.overall !== "no effect") return false;
  if (input.perEval.some((v) => v !== "no effect")) return false;
  return input.baselinePassRate !== undefined && input.baselinePassRate >= REDUNDANT_BASELINE;
}
