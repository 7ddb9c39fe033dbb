export interface Summary {
  mean: number;
  stddev: number;
  min: number;
  max: number;
}

/** NaN for no values (0 / 0). */
export function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** Sample standard deviation (n − 1); 0 when there are fewer than two values. */
export function sampleStddev(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  const squares = values.reduce((sum, v) => sum + (v - m) ** 2, 0);
  return Math.sqrt(squares / (values.length - 1));
}

export function median(values: readonly number[]): number {
  // Stryker disable next-line ConditionalExpression: equivalent, an empty list would give (undefined + undefined) / 2, NaN too
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Mean, sample stddev, min and max; undefined when there is nothing to summarize. */
export function summarize(values: readonly number[]): Summary | undefined {
  if (values.length === 0) return undefined;
  return {
    mean: mean(values),
    stddev: sampleStddev(values),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

/** A small seeded generator of numbers in [0, 1), so every interval can be reproduced from its seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BootstrapOptions {
  seed: number;
  resamples: number;
  /** e.g. 0.95 */
  confidence: number;
}

export const defaultBootstrap: BootstrapOptions = { seed: 1, resamples: 10_000, confidence: 0.95 };

/** The percentile interval of bootstrap statistics (sorted in place): both tails leave out the same number. */
export function percentileBounds(values: Float64Array, confidence: number): { low: number; high: number } {
  values.sort();
  const count = values.length;
  // The resamples in each tail, rounded where float error leaves a whole count a hair off (0.05 · 200 = 9.999…).
  const tail = Math.round(((1 - confidence) / 2) * count * 1e6) / 1e6;
  return {
    low: values[Math.max(0, Math.floor(tail))]!,
    high: values[Math.min(count - 1, Math.ceil(count - tail) - 1)]!,
  };
}

export interface DeltaInterval {
  estimate: number;
  ci_low: number;
  ci_high: number;
  confidence: number;
  /** The interval excludes zero. */
  distinguishable: boolean;
  /** How many paired differences it rests on. */
  pairs: number;
}

// Four decimals: enough for pass rates, and float noise around zero does not pass for a real difference.
function round(value: number): number {
  return Math.round(value * 10_000) / 10_000 + 0;
}

function groupedMean(groups: readonly (readonly number[])[]): number {
  return mean(groups.map((g) => mean(g)));
}

/**
 * Percentile bootstrap of the mean paired difference, over groups of differences (one group per eval): each resample
 * draws groups with replacement and then, within each drawn group, its differences with replacement. So both the
 * spread between evals and the run-to-run noise within an eval widen the interval; with one eval it is simply the
 * bootstrap of that eval's pairs. Null when fewer than two differences exist: no interval can be drawn.
 */
export function pairedBootstrap(
  groups: readonly (readonly number[])[],
  options: BootstrapOptions = defaultBootstrap,
): DeltaInterval | null {
  const nonEmpty = groups.filter((g) => g.length > 0);
  const pairs = nonEmpty.reduce((sum, g) => sum + g.length, 0);
  if (pairs < 2) return null;
  const random = mulberry32(options.seed);
  // random() < 1, so a draw is never past the last item.
  const pick = (n: number) => Math.floor(random() * n);
  const means = Float64Array.from({ length: options.resamples }, () => {
    let total = 0;
    for (let g = 0; g < nonEmpty.length; g++) {
      const group = nonEmpty[pick(nonEmpty.length)]!;
      let sum = 0;
      for (let i = 0; i < group.length; i++) sum += group[pick(group.length)]!;
      total += sum / group.length;
    }
    return total / nonEmpty.length;
  });
  const { low, high } = percentileBounds(means, options.confidence);
  const ci_low = round(low);
  const ci_high = round(high);
  return {
    estimate: round(groupedMean(nonEmpty)),
    ci_low,
    ci_high,
    confidence: options.confidence,
    distinguishable: ci_low > 0 || ci_high < 0,
    pairs,
  };
}
