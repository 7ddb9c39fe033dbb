import { z } from "zod";
import { EvalId } from "./evals.js";
import { GradedExpectation } from "./grading.js";
import { Count, NonNegative, Rate, Timestamp } from "./primitives.js";

export const configurations = ["with_skill", "without_skill", "old_skill"] as const;

// The viewer groups and colours runs by these exact strings.
export const Configuration = z.enum(configurations, {
  error: (issue) =>
    issue.input === undefined
      ? 'required: "with_skill", "without_skill" or "old_skill" (the field is `configuration`, not `config`)'
      : 'must be "with_skill", "without_skill" or "old_skill"',
});
export type Configuration = z.infer<typeof Configuration>;

export const BaselineConfiguration = z.enum(["without_skill", "old_skill"]);
export type BaselineConfiguration = z.infer<typeof BaselineConfiguration>;

export const RunResult = z.looseObject(
  {
    pass_rate: Rate,
    passed: Count,
    failed: Count.optional(),
    total: Count,
    time_seconds: NonNegative.optional(),
    tokens: NonNegative.optional(),
    tool_calls: Count.optional(),
    errors: Count.optional(),
  },
  {
    error: (issue) =>
      issue.input === undefined
        ? "required: an object with pass_rate, passed, failed, total, time_seconds, tokens, tool_calls, errors (they go under `result`, not on the run)"
        : undefined,
  },
);
export type RunResult = z.infer<typeof RunResult>;

export const BenchmarkRun = z.looseObject({
  eval_id: EvalId,
  /** Section header in the viewer; skill-creator's own aggregator omits it. */
  eval_name: z.string().optional(),
  configuration: Configuration,
  run_number: z.number().int().positive(),
  result: RunResult,
  expectations: z.array(GradedExpectation).optional(),
  notes: z.array(z.string()).optional(),
  /** Ours: why the run produced no result (agent crash, timeout…); such a run is an error, not a failure. */
  error: z.string().optional(),
});
export type BenchmarkRun = z.infer<typeof BenchmarkRun>;

export const Stat = z.looseObject({
  mean: z.number(),
  stddev: NonNegative,
  min: z.number().optional(),
  max: z.number().optional(),
});
export type Stat = z.infer<typeof Stat>;

export const ConfigurationSummary = z.looseObject({
  pass_rate: Stat,
  time_seconds: Stat,
  tokens: Stat,
});
export type ConfigurationSummary = z.infer<typeof ConfigurationSummary>;

/** A signed difference as text, e.g. "+0.50", "-13.0", "+1700". */
export const SignedDelta = z.string().regex(/^[+-]\d+(\.\d+)?$/, 'a signed number as text, e.g. "+0.50"');

// Always with_skill minus the baseline configuration.
export const SummaryDelta = z.looseObject({
  pass_rate: SignedDelta,
  time_seconds: SignedDelta,
  tokens: SignedDelta,
});
export type SummaryDelta = z.infer<typeof SummaryDelta>;

// Keyed by configuration name, plus `delta`; other tools' configuration names are kept unchecked.
export const RunSummary = z.looseObject({
  with_skill: ConfigurationSummary.optional(),
  without_skill: ConfigurationSummary.optional(),
  old_skill: ConfigurationSummary.optional(),
  delta: SummaryDelta.optional(),
});
export type RunSummary = z.infer<typeof RunSummary>;

export const DeltaEstimate = z
  .looseObject({
    estimate: z.number(),
    ci_low: z.number(),
    ci_high: z.number(),
    /** e.g. 0.95 */
    confidence: z.number().gt(0).lt(1),
    /** False when the interval includes zero: the difference may be noise. */
    distinguishable: z.boolean(),
  })
  .refine((d) => d.ci_low <= d.ci_high, { path: ["ci_low"], message: "must not exceed ci_high" });
export type DeltaEstimate = z.infer<typeof DeltaEstimate>;

export const verdicts = ["helps", "hurts", "no effect", "inconclusive"] as const;

/** What the paired interval of the lift says at an effect floor. */
export const Verdict = z.enum(verdicts);
export type Verdict = z.infer<typeof Verdict>;

export const EffectVerdict = z.looseObject({
  verdict: Verdict,
  /** The effect floor the interval was held against (a pass-rate difference). */
  floor: NonNegative,
  /** Inconclusive only: roughly how many runs per configuration would likely decide it. */
  runs_to_decide: z.number().int().positive().optional(),
  /** Present when the A/A spread measured by `skillgym noise` (noise.json) was wider than the effect floor and set it. */
  noise_spread: NonNegative.optional(),
});
export type EffectVerdict = z.infer<typeof EffectVerdict>;

/** The skill changes nothing measurable while the baseline already passes: what it costs for nothing. */
export const Redundancy = z.looseObject({
  baseline_pass_rate: Rate,
  /** with_skill − baseline, mean tokens and seconds per run (as run_summary.delta). */
  tokens_delta: SignedDelta.optional(),
  time_seconds_delta: SignedDelta.optional(),
});
export type Redundancy = z.infer<typeof Redundancy>;

export const PerEvalStatistics = z.looseObject({
  eval_id: EvalId,
  eval_name: z.string().optional(),
  /** Mean pass rate with the skill; null when no run of it was graded. */
  with_skill_pass_rate: Rate.nullable(),
  baseline_pass_rate: Rate.nullable(),
  delta_pass_rate: DeltaEstimate.nullable(),
  flaky: z.boolean().optional(),
  /** Absent when the eval has no interval (fewer than 2 paired runs). */
  verdict: EffectVerdict.optional(),
});
export type PerEvalStatistics = z.infer<typeof PerEvalStatistics>;

export const BenchmarkStatistics = z.looseObject({
  /** How the interval was computed, e.g. "paired bootstrap". */
  method: z.string().optional(),
  delta_pass_rate: DeltaEstimate,
  per_eval: z.array(PerEvalStatistics).optional(),
  /** The skill's verdict over all evals. */
  verdict: EffectVerdict.optional(),
  /** Present when the skill is redundant on this model. */
  redundant: Redundancy.optional(),
});
export type BenchmarkStatistics = z.infer<typeof BenchmarkStatistics>;

export const BenchmarkMetadata = z.looseObject({
  skill_name: z.string(),
  skill_path: z.string().optional(),
  executor_model: z.string().optional(),
  analyzer_model: z.string().optional(),
  timestamp: Timestamp,
  evals_run: z.array(EvalId),
  runs_per_configuration: z.number().int().positive(),
  baseline_configuration: BaselineConfiguration.optional(),
  judge_model: z.string().optional(),
  /** True when the agent was the offline simulator, not a real model. */
  simulated: z.boolean().optional(),
});
export type BenchmarkMetadata = z.infer<typeof BenchmarkMetadata>;

// benchmark.json (skill-creator's Benchmark mode); the viewer reads these names exactly.
/** Disclosure coverage of one eval: across its runs with the skill, how often each bundled file was opened. */
export const DisclosureCoverage = z.looseObject({
  eval_id: EvalId,
  configuration: z.string(),
  /** Runs with an activation.json. */
  runs: z.number().int().nonnegative(),
  /** Runs in which the skill loaded. */
  fired: z.number().int().nonnegative(),
  files: z.array(
    z.looseObject({ path: z.string(), kind: z.string(), opened_in: z.number().int().nonnegative() }),
  ),
  never_opened: z.array(z.string()),
});
export type DisclosureCoverage = z.infer<typeof DisclosureCoverage>;

export const Benchmark = z
  .looseObject({
    metadata: BenchmarkMetadata,
    runs: z.array(BenchmarkRun),
    run_summary: RunSummary,
    notes: z.array(z.string()).optional(),
    statistics: BenchmarkStatistics.optional(),
    /** Ours: which of the skill's files the runs opened, per eval (activation.json). */
    disclosure: z.array(DisclosureCoverage).optional(),
  })
  .superRefine((benchmark, ctx) => {
    const seen = new Map<string, number>();
    benchmark.runs.forEach((run, i) => {
      const key = JSON.stringify([String(run.eval_id), run.configuration, run.run_number]);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, i);
      else
        ctx.addIssue({
          code: "custom",
          path: ["runs", i],
          message: `duplicate run (eval ${JSON.stringify(run.eval_id)}, ${run.configuration}, run ${run.run_number}) first listed at runs[${first}]`,
        });
    });
  });
export type Benchmark = z.infer<typeof Benchmark>;
