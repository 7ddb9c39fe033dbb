import { z } from "zod";
import { TriggerQuery } from "./evals.js";
import { Count, NonNegative, Rate, Timestamp } from "./primitives.js";
import { TriggerQueryResult, TriggerSummary } from "./trigger-results.js";

/** One side of the split (train or test) evaluated with one description. */
export const OptimizeSubsetScore = z.looseObject({
  /** Accuracy over the side's scored runs (runs that errored left out); null when every run errored. */
  score: Rate.nullable(),
  summary: TriggerSummary,
  /** Per query: its trigger rate, triggers, runs, errors and pass, in triggers.json order. */
  results: z.array(TriggerQueryResult),
});
export type OptimizeSubsetScore = z.infer<typeof OptimizeSubsetScore>;

export const OptimizeImprover = z.looseObject({
  model: z.string(),
  /** 1, or 2 when the first answer was unusable and the improver was asked again. */
  asks: Count,
  cost_usd: NonNegative,
  /** Why an answer could not be used (too long, contains < or >, empty). */
  problems: z.array(z.string()).default([]),
  /** Set when no usable description came back: the iteration keeps the previous description. */
  error: z.string().optional(),
});
export type OptimizeImprover = z.infer<typeof OptimizeImprover>;

export const OptimizeIteration = z.looseObject({
  /** 0 is the original description; each later one is the improver's proposal. */
  iteration: Count,
  description: z.string(),
  status: z.enum(["complete", "improver_failed", "interrupted"]),
  improver: OptimizeImprover.optional(),
  /** The proposal repeats the description of this earlier iteration, whose scores are reused (nothing ran). */
  repeat_of: Count.optional(),
  train: OptimizeSubsetScore.nullable(),
  test: OptimizeSubsetScore.nullable(),
  /** Trigger runs this iteration started. */
  trigger_runs: Count,
  /** Runs of this evaluation that finished before an interruption and were reused by --resume, not run again. */
  reused_runs: Count.optional(),
  /** Trigger runs plus the improver. */
  cost_usd: NonNegative,
  /**
   * Replay in front of the agent on the train queries (`--screen replay`, on by default): the train runs made, how
   * many of them replay decided (the agent made the rest), and whether the agent's first request was captured by
   * this iteration (one more agent run) rather than found in the store. With 3 runs or more, replay also goes first
   * for each test query's first run (its later runs are the agent's): how many such runs were made, and decided.
   */
  replay: z
    .looseObject({
      train_runs: Count,
      decided_by_replay: Count,
      test_first_runs: Count.optional(),
      test_decided_by_replay: Count.optional(),
      captured: z.boolean(),
      off: z.string().optional(),
    })
    .optional(),
});
export type OptimizeIteration = z.infer<typeof OptimizeIteration>;

export const OptimizeTestGain = z.looseObject({
  original: Rate,
  best: Rate,
  /** best − original test score. */
  gain: z.number().min(-1).max(1),
  ci_low: z.number(),
  ci_high: z.number(),
  confidence: Rate,
  /** The interval excludes zero: the gain is larger than run-to-run and query-to-query noise. */
  beyond_noise: z.boolean(),
  note: z.string(),
});
export type OptimizeTestGain = z.infer<typeof OptimizeTestGain>;

export const OptimizeExitReason = z.enum([
  "running",
  "train_perfect",
  "max_iterations",
  "test_plateau",
  "improver_failed",
  "budget",
  "cancelled",
  "error",
]);
export type OptimizeExitReason = z.infer<typeof OptimizeExitReason>;

// optimize-<timestamp>/results.json: the description optimizer's record, rewritten after every iteration.
export const OptimizeResults = z.looseObject({
  skill_name: z.string(),
  skill_path: z.string(),
  status: z.enum(["running", "complete", "interrupted"]),
  started_at: Timestamp,
  finished_at: Timestamp.optional(),
  /** When the optimization was continued with --resume, oldest first. */
  resumed_at: z.array(Timestamp).optional(),
  /** True when the agent and the improver were the offline simulator, not a model. */
  simulated: z.boolean(),
  settings: z.looseObject({
    max_iterations: Count,
    holdout: Rate,
    runs_per_query: z.number().int().positive(),
    threshold: Rate,
    seed: z.number().int(),
    /** Evaluations in a row without a change of the test score that end the loop. */
    patience: z.number().int().positive(),
    model: z.string().optional(),
    improver_backend: z.string(),
    improver_model: z.string(),
    max_cost_usd: NonNegative.optional(),
    /** Where every trigger run was made (`--project-root`, `--installed`, `--context`); absent: the clean room. */
    conditions: z
      .strictObject({
        project_root: z.string().optional(),
        installed: z.array(z.string()).optional(),
        context: z.string().optional(),
      })
      .optional(),
  }),
  /** How a description is scored on each side. */
  score_metric: z.string(),
  split: z.looseObject({ train: z.array(TriggerQuery), test: z.array(TriggerQuery) }),
  estimate: z.looseObject({ trigger_runs: Count, improver_calls: Count, cost_usd: NonNegative }),
  original_description: z.string(),
  /** The description with the highest test score, ties to the earliest iteration. */
  best_description: z.string(),
  best_iteration: Count.nullable(),
  /** The description of the last iteration. */
  final_description: z.string(),
  exit_reason: OptimizeExitReason,
  /** Iteration 0, the original description on train and test, always comes first once it ran. */
  iterations: z.array(OptimizeIteration),
  test_gain: OptimizeTestGain.nullable(),
  cost_usd: NonNegative,
  /** Why the loop stopped early, when exit_reason is "error". */
  error: z.string().optional(),
  /** True once --apply wrote the best description into SKILL.md. */
  applied: z.boolean().optional(),
  /**
   * Whether replay screened the train runs ("replay": on by default when the agent has replay and an API key or the
   * simulator; "none": `--screen none`, or not possible, `off` says why); test runs are always the agent's.
   */
  screen: z
    .looseObject({ kind: z.enum(["replay", "none"]), asked: z.boolean(), off: z.string().optional() })
    .optional(),
});
export type OptimizeResults = z.infer<typeof OptimizeResults>;

// optimize-<timestamp>/iteration-<k>/improver.json: what the improver was asked and answered for one iteration.
export const OptimizeProposal = z.looseObject({
  description: z.string().optional(),
  model: z.string(),
  asks: Count,
  costUsd: NonNegative,
  problems: z.array(z.string()),
  error: z.string().optional(),
  system: z.string(),
  exchanges: z.array(z.looseObject({ prompt: z.string(), answer: z.string() })),
});
export type OptimizeProposal = z.infer<typeof OptimizeProposal>;
