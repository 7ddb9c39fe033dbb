import { z } from "zod";
import { BaselineConfiguration, Verdict } from "./benchmark.js";
import { Change } from "./diff.js";
import { History, HistoryIteration } from "./history.js";
import { AgentName } from "./matrix.js";
import { Count, NonNegative, Rate, Timestamp } from "./primitives.js";

/** with_skill minus the baseline, with its 95% interval (benchmark.json's statistics.delta_pass_rate). */
export const LiftInterval = z
  .looseObject({ estimate: z.number(), ci_low: z.number(), ci_high: z.number() })
  .refine((d) => d.ci_low <= d.ci_high, { path: ["ci_low"], message: "must not exceed ci_high" });
export type LiftInterval = z.infer<typeof LiftInterval>;

/**
 * One row of history.json as `skillgym run` writes it: skill-creator's row (version, parent, expectation_pass_rate,
 * grading_result, is_current_best) plus ours, all optional, so skill-creator's and the tune loop's rows parse too.
 * `version` is the row's folder under the workspace: `iteration-3`, or `iteration-3/<part>` in an iteration of several
 * agents or models; `parent` the version it was compared with; `expectation_pass_rate` the with-skill pass rate.
 */
export const RunHistoryIteration = HistoryIteration.extend({
  /** Ours: the iteration's number; present on every row `run` writes. */
  iteration: z.number().int().nonnegative().optional(),
  /** The part's folder in an iteration of several agents or models; absent for an ordinary iteration. */
  part: AgentName.optional(),
  agent: z.string().optional(),
  agent_version: z.string().optional(),
  /** The model asked for (`--model`), else what benchmark.json's executor_model says ran. */
  model: z.string().optional(),
  skill_hash: z.string().optional(),
  timestamp: Timestamp.optional(),
  with_skill_pass_rate: Rate.nullable().optional(),
  baseline_configuration: BaselineConfiguration.nullable().optional(),
  baseline_pass_rate: Rate.nullable().optional(),
  /** The lift and its interval; null without a baseline. */
  delta: LiftInterval.nullable().optional(),
  /** The skill's verdict at `effect_floor`; null when there is no interval. */
  verdict: Verdict.nullable().optional(),
  /** The floor the verdict and the comparison with the parent were held against. */
  effect_floor: NonNegative.optional(),
  /** Present (true) only when the skill is redundant: no effect while the baseline already passes. */
  redundant: z.literal(true).optional(),
  /** Trigger accuracy, when the iteration ran trigger evals. */
  trigger_accuracy: Rate.nullable().optional(),
  /** Against the parent, as `skillgym diff <parent> <this>` says of the skill over all evals; absent on a first row. */
  change: Change.optional(),
  /** Against the parent: how many evals regressed beyond the floor; absent on a first row. */
  regressed_evals: Count.optional(),
});
export type RunHistoryIteration = z.infer<typeof RunHistoryIteration>;

// history.json at the workspace root: skill-creator's format, each row with our extras. Every such file is a History.
export const RunHistory = History.safeExtend({ iterations: z.array(RunHistoryIteration) });
export type RunHistory = z.infer<typeof RunHistory>;
