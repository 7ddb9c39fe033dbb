import { mulberry32 } from "../bench/statistics.js";
import type { OptimizeSubsetScore, OptimizeTestGain } from "../contracts/optimize-results.js";
import type { TriggerQueryResult } from "../contracts/trigger-results.js";

export interface NoiseOptions {
  seed: number;
  resamples: number;
  confidence: number;
}

export const defaultNoise: NoiseOptions = { seed: 1, resamples: 4000, confidence: 0.95 };

interface QueryRuns {
  original: { correct: number; runs: number };
  best: { correct: number; runs: number };
}

function correctRuns(r: TriggerQueryResult): { correct: number; runs: number } {
  const runs = r.runs - r.errors;
  return { correct: r.should_trigger ? r.triggers : runs - r.triggers, runs };
}

const round = (x: number) => Math.round(x * 10_000) / 10_000 + 0;
const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(2)}`;

function resampledAccuracy(side: { correct: number; runs: number }[], random: () => number): number {
  let correct = 0;
  let runs = 0;
  for (const s of side) {
    const p = s.correct / s.runs;
    for (let k = 0; k < s.runs; k++) {
      // Stryker disable next-line EqualityOperator: equivalent, a draw equals p with odds of 2^-32
      if (random() < p) correct++;
    }
    runs += s.runs;
  }
  return correct / runs;
}

/**
 * Is the best description's test gain larger than noise? A percentile bootstrap of the gain in accuracy: each
 * resample draws test queries with replacement and then, within each drawn query, each description's runs with
 * replacement, so both which queries were held out and run-to-run randomness widen the interval.
 */
export function testGain(
  original: OptimizeSubsetScore,
  best: OptimizeSubsetScore,
  options: NoiseOptions = defaultNoise,
): OptimizeTestGain | null {
  if (original.score === null || best.score === null) return null;
  const gain = round(best.score - original.score);
  const queries: QueryRuns[] = original.results.flatMap((r, i) => {
    const o = correctRuns(r);
    const b = best.results[i] ? correctRuns(best.results[i]) : { correct: 0, runs: 0 };
    return o.runs > 0 && b.runs > 0 ? [{ original: o, best: b }] : [];
  });
  const base = { original: original.score, best: best.score, gain, confidence: options.confidence };
  if (queries.length === 0) return null;
  const random = mulberry32(options.seed);
  const gains = Float64Array.from({ length: options.resamples }, () => {
    // mulberry32 draws below 1, so a draw is never past the last query.
    const drawn = Array.from(
      { length: queries.length },
      () => queries[Math.floor(random() * queries.length)]!,
    );
    return (
      resampledAccuracy(
        drawn.map((q) => q.best),
        random,
      ) -
      resampledAccuracy(
        drawn.map((q) => q.original),
        random,
      )
    );
  });
  gains.sort();
  const tail = (1 - options.confidence) / 2;
  const ci_low = round(gains[Math.max(0, Math.floor(tail * options.resamples))]!);
  // A confidence of at most 1 never points past the last gain.
  const ci_high = round(gains[Math.ceil((1 - tail) * options.resamples) - 1]!);
  const beyond_noise = gain !== 0 && (ci_low > 0 || ci_high < 0);
  const interval = `${Math.round(options.confidence * 100)}% interval ${signed(ci_low)}..${signed(ci_high)} over ${queries.length} test queries`;
  const note =
    gain === 0
      ? `${signed(gain)} on test: no gain over the original (${interval})`
      : `${signed(gain)} on test, ${beyond_noise ? "beyond noise" : "within noise"} (${interval})`;
  return { ...base, ci_low, ci_high, beyond_noise, note };
}
