import type { OptimizeIteration, OptimizeResults } from "../contracts/optimize-results.js";
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
      ...(options.maxCostUsd !== undefined ? { max_cost_usd: options.maxCostUsd } : {}),
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

/** Adds an iteration and brings best, final and the test gain up to date. */
export function withIteration(results: OptimizeResults, iteration: OptimizeIteration): OptimizeResults {
  const iterations = [...results.iterations, iteration];
  const best = bestIteration(iterations);
  const original = iterations.find((it) => it.iteration === 0);
  const gain = best?.test && original?.test ? testGain(original.test, best.test) : null;
  return {
    ...results,
    iterations,
    cost_usd: results.cost_usd + iteration.cost_usd,
    best_iteration: best?.iteration ?? null,
    best_description: best?.description ?? results.original_description,
    final_description: iteration.description,
    test_gain: gain,
  };
}
