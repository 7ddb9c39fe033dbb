import { z } from "zod";
import { GradingResult } from "./history.js";
import { Count, NonNegative, Rate, Score100, Timestamp } from "./primitives.js";

export const rubricDimensions = [
  "clarity",
  "completeness",
  "correctness",
  "effectiveness",
  "efficiency",
] as const;
export const RubricDimension = z.enum(rubricDimensions);
export type RubricDimension = z.infer<typeof RubricDimension>;

/** Weights of the tune rubric's dimensions in the 0–100 composite score; they sum to 1. */
export const rubricWeights = {
  clarity: 0.2,
  completeness: 0.25,
  correctness: 0.25,
  effectiveness: 0.2,
  efficiency: 0.1,
} as const satisfies Record<RubricDimension, number>;

export const tunePresets = {
  quick: { max_iterations: 3, quality_threshold: 70 },
  standard: { max_iterations: 5, quality_threshold: 80 },
  thorough: { max_iterations: 8, quality_threshold: 90 },
} as const;
export const TunePreset = z.enum(["quick", "standard", "thorough"]);
export type TunePreset = z.infer<typeof TunePreset>;

export const ExecutionMode = z.enum(["single", "chain"]);
export type ExecutionMode = z.infer<typeof ExecutionMode>;

export const TuneStatus = z.enum(["running", "completed", "failed"]);
export type TuneStatus = z.infer<typeof TuneStatus>;

export const TerminationReason = z.enum([
  "quality_threshold_met",
  "max_iterations_reached",
  "convergence_detected",
  "error_limit_reached",
  /** Ours: `--max-cost` would have been crossed; the best version so far stands. */
  "budget_exhausted",
]);
export type TerminationReason = z.infer<typeof TerminationReason>;

export const IterationStatus = z.enum([
  "pending",
  "executing",
  "evaluating",
  "improving",
  "completed",
  "failed",
]);
export type IterationStatus = z.infer<typeof IterationStatus>;

/** Each dimension scored 0–100. */
export const DimensionScores = z.looseObject({
  clarity: Score100,
  completeness: Score100,
  correctness: Score100,
  effectiveness: Score100,
  efficiency: Score100,
});
export type DimensionScores = z.infer<typeof DimensionScores>;

// One skill's step of a chain: its outputs are the next skill's inputs.
export const ChainStep = z.looseObject({
  skill_name: z.string().min(1),
  status: z.enum(["completed", "failed"]),
  /** Relative to the tune workspace. */
  artifacts_dir: z.string().optional(),
  error: z.string().optional(),
});
export type ChainStep = z.infer<typeof ChainStep>;

export const IterationExecution = z.looseObject({
  started_at: Timestamp.optional(),
  finished_at: Timestamp.optional(),
  /** Where this iteration's runs live, relative to the tune workspace. */
  iteration_dir: z.string().optional(),
  /** Chain mode (and any tune of several skills): each skill's eval iteration, relative to the tune workspace. */
  iteration_dirs: z.record(z.string(), z.string()).optional(),
  runs: Count,
  errored_runs: Count,
  duration_seconds: NonNegative.optional(),
  cost_usd: NonNegative.optional(),
  chain: z.array(ChainStep).optional(),
  error: z.string().optional(),
});
export type IterationExecution = z.infer<typeof IterationExecution>;

// One skill's measurement: the expectation pass rate of its eval runs and the judge's rubric.
export const SkillEvaluation = z.looseObject({
  /** Composite 0–100: half the expectation pass rate × 100, half `rubric_score`. */
  score: Score100,
  /** The dimensions weighted by `rubricWeights`. */
  rubric_score: Score100.optional(),
  dimensions: DimensionScores,
  expectation_pass_rate: Rate,
  /** Most important first, each prefixed with its priority: "[high] …". */
  suggestions: z.array(z.string()),
  strengths: z.array(z.string()).optional(),
  weaknesses: z.array(z.string()).optional(),
  /** Set when the score is a fallback or was extracted heuristically from the judge's text. */
  warning: z.string().optional(),
});
export type SkillEvaluation = z.infer<typeof SkillEvaluation>;

export const IterationEvaluation = z.looseObject({
  /**
   * Composite 0–100: half the expectation pass rate × 100, half the dimensions weighted by `rubricWeights`
   * (chain mode: the mean of the skills' composites).
   */
  score: Score100,
  /** The dimensions weighted by `rubricWeights`. */
  rubric_score: Score100.optional(),
  dimensions: DimensionScores,
  expectation_pass_rate: Rate,
  /** Most important first, each prefixed with its priority: "[high] …". */
  suggestions: z.array(z.string()),
  strengths: z.array(z.string()).optional(),
  weaknesses: z.array(z.string()).optional(),
  /** Chain mode: each skill's own composite score, by skill name. */
  skill_scores: z.record(z.string(), Score100).optional(),
  /** Chain mode: each skill's own measurement, by skill name. */
  skill_evaluations: z.record(z.string(), SkillEvaluation).optional(),
  judge_model: z.string().optional(),
  /** The backend whose rubric this is (`tune --evaluator`, else the judge): claude-code, codex, gemini, … */
  evaluator: z.string().optional(),
  /** Set when the score is a fallback or was extracted heuristically from the judge's text. */
  warning: z.string().optional(),
  cost_usd: NonNegative.optional(),
});
export type IterationEvaluation = z.infer<typeof IterationEvaluation>;

export const IterationImprovement = z.looseObject({
  /** A markdown file describing the edits, relative to the tune workspace. */
  changes_file: z.string().optional(),
  summary: z.string().optional(),
  /** Chain mode: the skills that were edited (the weakest). */
  target_skills: z.array(z.string()).optional(),
  /** True when the edit failed and the skill was restored from the snapshot. */
  rolled_back: z.boolean().optional(),
  /** The version the edit started from: the best so far. */
  from_version: z.string().optional(),
  /** The skill folders the next iteration measures, by skill name, relative to the tune workspace. */
  next_candidate: z.record(z.string(), z.string()).optional(),
  attempts: Count.optional(),
  cost_usd: NonNegative.optional(),
  error: z.string().optional(),
});
export type IterationImprovement = z.infer<typeof IterationImprovement>;

export const TuneIteration = z.looseObject({
  /** 1-based. */
  round: z.number().int().positive(),
  /** The skill version this iteration measured: v0, v1, … */
  version: z.string().min(1),
  /** The version the measured one was derived from (the best at the time); null for the original. */
  parent: z.string().nullable().optional(),
  status: IterationStatus,
  /** Snapshot of the skill(s) before execution, relative to the tune workspace. */
  skill_snapshot: z.string().optional(),
  started_at: Timestamp.optional(),
  finished_at: Timestamp.optional(),
  execution: IterationExecution.nullable().default(null),
  evaluation: IterationEvaluation.nullable().default(null),
  improvement: IterationImprovement.nullable().default(null),
  /** Against the best version so far; "baseline" for the first. */
  grading_result: GradingResult.optional(),
  error: z.string().optional(),
});
export type TuneIteration = z.infer<typeof TuneIteration>;

// iteration-state.json: the tune loop's single source of truth; an interrupted tune resumes from it.
export const IterationState = z
  .looseObject({
    /** The skills being tuned, by name (the seed's field). */
    target_skills: z.array(z.string().min(1)).min(1).optional(),
    /** Accepted for `target_skills` (files written before the seed's name was adopted). */
    skill_names: z.array(z.string().min(1)).min(1).optional(),
    /** Where each skill of `target_skills` came from, same order. */
    skill_paths: z.array(z.string()).optional(),
    /** The eval suite of each skill (a folder), same order. */
    evals_paths: z.array(z.string()).optional(),
    runs_per_eval: z.number().int().positive().optional(),
    simulated: z.boolean().optional(),
    execution_mode: ExecutionMode,
    /** Chain mode: the order the skills run in. */
    chain_order: z.array(z.string().min(1)).optional(),
    test_scenario: z.string().optional(),
    preset: TunePreset.optional(),
    model: z.string().optional(),
    judge_model: z.string().optional(),
    /** The backend of the evaluate phase (`tune --evaluator`, else the judge), e.g. gemini. */
    evaluator: z.string().optional(),
    current_iteration: Count,
    max_iterations: z.number().int().positive(),
    quality_threshold: Score100,
    latest_score: Score100.nullable(),
    best_score: Score100.nullable(),
    /** The version of the best iteration so far. */
    current_best: z.string().nullable(),
    score_trend: z.array(Score100),
    converged: z.boolean(),
    error_count: Count,
    max_errors: z.number().int().positive(),
    consecutive_errors: Count,
    status: TuneStatus,
    termination_reason: TerminationReason.nullable(),
    started_at: Timestamp,
    updated_at: Timestamp,
    iterations: z.array(TuneIteration),
  })
  .superRefine((state, ctx) => {
    const names = state.target_skills ?? state.skill_names ?? [];
    if (state.target_skills === undefined && state.skill_names === undefined)
      ctx.addIssue({ code: "custom", path: ["target_skills"], message: "required" });
    if (
      state.target_skills !== undefined &&
      state.skill_names !== undefined &&
      JSON.stringify(state.target_skills) !== JSON.stringify(state.skill_names)
    )
      ctx.addIssue({ code: "custom", path: ["skill_names"], message: "differs from target_skills" });
    if (names.length > 0 && state.skill_paths !== undefined && state.skill_paths.length !== names.length)
      ctx.addIssue({
        code: "custom",
        path: ["skill_paths"],
        message: `has ${state.skill_paths.length} entries for ${names.length} target_skills`,
      });
    if (state.execution_mode === "chain") {
      if (!state.chain_order || state.chain_order.length === 0)
        ctx.addIssue({ code: "custom", path: ["chain_order"], message: "required in chain mode" });
      state.chain_order?.forEach((name, i) => {
        if (!names.includes(name))
          ctx.addIssue({
            code: "custom",
            path: ["chain_order", i],
            message: `"${name}" is not one of target_skills`,
          });
      });
    }
    state.iterations.forEach((iteration, i) => {
      if (iteration.round !== i + 1)
        ctx.addIssue({ code: "custom", path: ["iterations", i, "round"], message: `must be ${i + 1}` });
    });
    if (state.current_iteration !== state.iterations.length)
      ctx.addIssue({
        code: "custom",
        path: ["current_iteration"],
        message: `is ${state.current_iteration} but ${state.iterations.length} iterations are recorded`,
      });
    if (state.current_best !== null && !state.iterations.some((it) => it.version === state.current_best))
      ctx.addIssue({
        code: "custom",
        path: ["current_best"],
        message: `"${state.current_best}" is not the version of any iteration`,
      });
    if (state.status === "completed" && state.termination_reason === null)
      ctx.addIssue({ code: "custom", path: ["termination_reason"], message: "required once completed" });
  });
export type IterationState = z.infer<typeof IterationState>;

/** The tuned skills' names, whichever of the two field names the file used. */
export function targetSkillsOf(state: Pick<IterationState, "target_skills" | "skill_names">): string[] {
  return state.target_skills ?? state.skill_names ?? [];
}
