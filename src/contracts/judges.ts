import { z } from "zod";
import { Count, Rate, Timestamp } from "./primitives.js";

/** One judge as `skillgym judges` named it: `backend` or `backend:model`. */
export const JudgeIdentity = z.looseObject({
  id: z.string().min(1),
  backend: z.string().min(1),
  model: z.string().optional(),
  cost_usd: z.number().nonnegative(),
  /** (run, expectation) verdicts it gave, over every repeat. */
  verdicts: Count,
  /** Runs it failed to grade, with why. */
  errors: z.array(z.looseObject({ run_id: z.string(), error: z.string() })),
});
export type JudgeIdentity = z.infer<typeof JudgeIdentity>;

/** A percentile bootstrap interval; null where no interval can be drawn (fewer than two items, κ undefined). */
export const KappaInterval = z.looseObject({ low: z.number(), high: z.number(), confidence: Rate });
export type KappaInterval = z.infer<typeof KappaInterval>;

/** How far two raters agree on pass/fail: percent agreement, and Cohen's κ (null when chance agreement is 1). */
export const Agreement = z.looseObject({
  /** The verdicts both raters gave. */
  n: Count,
  percent_agreement: Rate.nullable(),
  kappa: z.number().min(-1).max(1).nullable(),
  kappa_ci: KappaInterval.nullable(),
});
export type Agreement = z.infer<typeof Agreement>;

export const VerdictSide = z.looseObject({ passed: z.boolean(), evidence: z.string() });
export type VerdictSide = z.infer<typeof VerdictSide>;

/** Comparisons made in both orders (A/B, then B/A) and how many named a different winner in each: a tie then. */
export const PositionBias = z.looseObject({
  comparisons: Count,
  biased: Count,
  rate: Rate,
});
export type PositionBias = z.infer<typeof PositionBias>;

/** One expectation of one run on which two raters differ. */
export const Disagreement = z.looseObject({
  /** feedback.json's key of the run. */
  run_id: z.string(),
  eval_id: z.union([z.string(), z.number()]),
  text: z.string(),
  a: VerdictSide,
  b: VerdictSide,
});
export type Disagreement = z.infer<typeof Disagreement>;

export const JudgePair = Agreement.extend({
  a: z.string(),
  b: z.string(),
  disagreements: z.array(Disagreement),
});
export type JudgePair = z.infer<typeof JudgePair>;

/** A judge against the reviewers' markings: a grade marked right keeps its verdict as the truth, wrong negates it. */
export const HumanAgreement = Agreement.extend({
  judge: z.string(),
  /** `a` is the judge, `b` the human truth. */
  disagreements: z.array(Disagreement),
});
export type HumanAgreement = z.infer<typeof HumanAgreement>;

/** How often one judge changes its verdict when asked again about the same run (`--repeat`). */
export const SelfConsistency = z.looseObject({
  judge: z.string(),
  /** (run, expectation) items graded more than once. */
  n: Count,
  flips: Count,
  flip_rate: Rate.nullable(),
  flipped: z.array(
    z.looseObject({ run_id: z.string(), eval_id: z.union([z.string(), z.number()]), text: z.string() }),
  ),
});
export type SelfConsistency = z.infer<typeof SelfConsistency>;

/** An expectation judges disagree on, or flip on: likely worded so a reader can take it two ways. */
export const AmbiguousExpectation = z.looseObject({
  eval_id: z.union([z.string(), z.number()]),
  text: z.string(),
  /** Why it is flagged, one sentence each. */
  reasons: z.array(z.string()).min(1),
  /** A clearer wording the analyzer suggests, when it was asked. */
  suggested_rewording: z.string().optional(),
});
export type AmbiguousExpectation = z.infer<typeof AmbiguousExpectation>;

export const JudgeGate = z.looseObject({
  /** The threshold on every pair's percent agreement. */
  min_judge_agreement: Rate,
  passed: z.boolean(),
  message: z.string(),
});
export type JudgeGate = z.infer<typeof JudgeGate>;

// judges.json in an iteration folder, written by `skillgym judges`: how far each judge can be trusted on these evals.
export const JudgesReport = z.looseObject({
  created_at: Timestamp,
  iteration_dir: z.string(),
  /** Times each judge graded each run. */
  repeat: z.number().int().positive(),
  /** Runs re-graded (finished runs whose eval has expectations for a judge). */
  runs: Count,
  simulated: z.boolean(),
  judges: z.array(JudgeIdentity),
  pairs: z.array(JudgePair),
  humans: z.array(HumanAgreement),
  /** (run, expectation) items reviewers marked right or wrong. */
  human_marks: Count,
  self_consistency: z.array(SelfConsistency),
  ambiguous: z.array(AmbiguousExpectation),
  gate: JudgeGate.optional(),
  /** The blind comparisons in the iteration's eval folders, each made in both orders: how often the order decided. */
  position_bias: PositionBias.optional(),
});
export type JudgesReport = z.infer<typeof JudgesReport>;
