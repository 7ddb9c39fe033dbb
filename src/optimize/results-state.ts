import type { OptimizeIteration, OptimizeResults } from "../contracts/optimize-results.js";
import { conditionsSetting } from "./conditions.js";
import { bestIteration, SCORE_METRIC } from "./decide.js";
import type { OptimizeEstimate } from "./estimate.js";
import { testGain } from "./noise.js";
import type { OptimizeOptions, PreparedOptimize } from "./plan.js";

/** results.json before the first run. */
export function initialResults(input: {
  prepared: PreparedOptimize;
  options: OptimizeOptions;
  patience: number;
  estimate: OptimizeEstimate;
  simulated: boolean;
  improver: { backend: string; model: string };
  startedAt: Date;
}): OptimizeResults {
  const { prepared, options } = input;
  const original = prepared.skill.description;
  return {
    skill_name: prepared.skill.name,
    skill_path: prepared.skill.dir,
    status: "running",
    started_at: input.startedAt.toISOString(),
    simulated: input.simulated,
    settings: {
      max_iterations: options.maxIterations,
      holdout: options.holdout,
      runs_per_query: options.runs,
      threshold: options.threshold,
      seed: options.seed,
      patience: input.patience,
      ...(options.model ? { model: options.model } : {}),
      improver_backend: input.improver.backend,
      improver_model: input.improver.model,
      max_cost_usd: options.maxCostUsd,
      ...conditionsSetting(prepared.conditions),
    },
    score_metric: SCORE_METRIC,
    split: {
      train: prepared.split.train.map((i) => prepared.queries[i]!),
      test: prepared.split.test.map((i) => prepared.queries[i]!),
    },
    estimate: {
      trigger_runs: input.estimate.triggerRuns,
      improver_calls: input.estimate.improverCalls,
      cost_usd: input.estimate.costUsd,
    },
    original_description: original,
    best_description: original,
    best_iteration: null,
    final_description: original,
    exit_reason: "running",
    iterations: [],
    test_gain: null,
    cost_usd: 0,
  };
}

/** Sets the iterations and brings best, final, cost and the test gain up to date. */
export function withIterations(
  results: OptimizeResults,
  iterations: readonly OptimizeIteration[],
): OptimizeResults {
  const best = bestIteration(iterations);
  const original = iterations.find((it) => it.iteration === 0);
  const gain = best?.test && original?.test ? testGain(original.test, best.test) : null;
  return {
    ...results,
    iterations: [...iterations],
    cost_usd: iterations.reduce((sum, it) => sum + it.cost_usd, 0),
    best_iteration: best?.iteration ?? null,
    best_description: best?.description ?? results.original_description,
    final_description: iterations.at(-1)?.description ?? results.original_description,
    test_gain: gain,
  };
}

/** Adds an iteration and brings best, final and the test gain up to date. */
export function withIteration(results: OptimizeResults, iteration: OptimizeIteration): OptimizeResults {
  return withIterations(results, [...results.iterations, iteration]);
}

/**
 * results.json of an interrupted optimization, ready to go on: finished iterations kept, an evaluation cut short
 * dropped (it runs again, reusing its finished trigger runs), running again.
 */
export function resumedResults(stored: OptimizeResults, now: Date): OptimizeResults {
  const { finished_at: _finished, error: _error, ...rest } = stored;
  const kept = stored.iterations.filter((it) => it.status !== "interrupted");
  return withIterations(
    {
      ...rest,
      status: "running",
      exit_reason: "running",
      resumed_at: [...(stored.resumed_at ?? []), now.toISOString()],
    },
    kept,
  );
}
