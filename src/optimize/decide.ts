import type { DescriberFailure } from "../contracts/describer-protocol.js";
import type {
  OptimizeExitReason,
  OptimizeIteration,
  OptimizeSubsetScore,
} from "../contracts/optimize-results.js";
import type { TriggerQueryResult } from "../contracts/trigger-results.js";
import { summarize } from "../triggers/score.js";
import type { EarlierAttempt } from "./improver-prompt.js";

export const SCORE_METRIC =
  "accuracy over runs: (runs of should-trigger queries that triggered + runs of should-not queries that did not) / scored runs";

/** One side of the split, scored: accuracy over its scored runs. */
export function subsetScore(
  results: readonly TriggerQueryResult[],
  positions: readonly number[],
): OptimizeSubsetScore {
  const picked = positions.map((i) => results[i]!);
  const summary = summarize(picked);
  return { score: summary.accuracy, summary, results: picked };
}

export function isPerfect(subset: OptimizeSubsetScore): boolean {
  return subset.summary.total > 0 && subset.summary.passed === subset.summary.total;
}

/** The latest iteration that was evaluated: the description the improver works from. */
export function currentIteration(iterations: readonly OptimizeIteration[]): OptimizeIteration | undefined {
  return iterations.findLast((it) => it.train !== null);
}

export function trainFailures(train: OptimizeSubsetScore): DescriberFailure[] {
  return train.results
    .filter((r) => r.pass === false)
    .map((r) => ({ query: r.query, should_trigger: r.should_trigger, trigger_rate: r.trigger_rate }));
}

/** The descriptions tried so far with their train scores only: the improver must learn nothing of the test side. */
export function earlierAttempts(iterations: readonly OptimizeIteration[]): EarlierAttempt[] {
  return iterations.flatMap((it) =>
    it.train && it.repeat_of === undefined
      ? [
          {
            iteration: it.iteration,
            description: it.description,
            trainScore: it.train.score,
            trainPassed: it.train.summary.passed,
            trainTotal: it.train.summary.total,
          },
        ]
      : [],
  );
}

/** The earlier iteration that already evaluated this exact description, if any. */
export function repeatOf(
  iterations: readonly OptimizeIteration[],
  description: string,
): OptimizeIteration | undefined {
  return iterations.find((it) => it.train !== null && it.description === description);
}

// Scores closer than this are the same: the same accuracy summed in another order differs by less.
const tolerance = 1e-9;
const same = (a: number, b: number) => Math.abs(a - b) < tolerance;
/** `a` is higher than `b` by more than a rounding error. */
const above = (a: number, b: number) => a - b >= tolerance;

/** Why the loop should stop now, or undefined to go on. */
export function stopReason(
  iterations: readonly OptimizeIteration[],
  options: { maxIterations: number; patience: number },
): OptimizeExitReason | undefined {
  const current = currentIteration(iterations);
  if (current?.train && isPerfect(current.train)) return "train_perfect";
  const last = iterations.at(-1);
  if (last && last.iteration >= options.maxIterations) return "max_iterations";
  const failed = iterations.slice(-2);
  if (failed.length === 2 && failed.every((it) => it.status === "improver_failed")) return "improver_failed";
  const testScores = iterations.flatMap((it) =>
    it.test?.score !== null && it.test?.score !== undefined ? [it.test.score] : [],
  );
  const window = testScores.slice(-(options.patience + 1));
  if (window.length === options.patience + 1 && window.every((s) => same(s, window[0]!)))
    return "test_plateau";
  return undefined;
}

/** The iteration with the highest test score, ties to the earliest; null when none has one. */
export function bestIteration(iterations: readonly OptimizeIteration[]): OptimizeIteration | undefined {
  let best: OptimizeIteration | undefined;
  for (const it of iterations) {
    const score = it.test?.score;
    if (it.status !== "complete" || score === null || score === undefined) continue;
    const bestScore = best?.test?.score;
    if (bestScore === undefined || bestScore === null || above(score, bestScore)) best = it;
  }
  return best;
}
