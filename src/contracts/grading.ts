import { z } from "zod";
import { checkTypes } from "./checks.js";
import { Metrics } from "./metrics.js";
import { Count, Rate } from "./primitives.js";
import { Timing } from "./timing.js";

/** Who graded an expectation: a structured check (no model) or the judge. */
export const ExpectationSource = z.enum(["check", "judge"]);
export type ExpectationSource = z.infer<typeof ExpectationSource>;

// One graded expectation; the viewer reads exactly `text`, `passed`, `evidence`.
export const GradedExpectation = z.looseObject({
  text: z.string(),
  passed: z.boolean(),
  evidence: z.string(),
  source: ExpectationSource.optional(),
  check_type: z.enum(checkTypes).optional(),
});
export type GradedExpectation = z.infer<typeof GradedExpectation>;

export const GradingSummary = z.looseObject({
  passed: Count,
  failed: Count,
  total: Count,
  pass_rate: Rate,
});
export type GradingSummary = z.infer<typeof GradingSummary>;

export const Claim = z.looseObject({
  claim: z.string(),
  /** "factual", "process" or "quality" in skill-creator's grader; kept open. */
  type: z.string(),
  verified: z.boolean(),
  evidence: z.string().optional(),
});
export type Claim = z.infer<typeof Claim>;

export const UserNotesSummary = z.looseObject({
  uncertainties: z.array(z.string()).optional(),
  needs_review: z.array(z.string()).optional(),
  workarounds: z.array(z.string()).optional(),
});
export type UserNotesSummary = z.infer<typeof UserNotesSummary>;

export const EvalFeedbackSuggestion = z.looseObject({
  assertion: z.string().optional(),
  reason: z.string(),
});
export type EvalFeedbackSuggestion = z.infer<typeof EvalFeedbackSuggestion>;

export const EvalFeedback = z.looseObject({
  suggestions: z.array(EvalFeedbackSuggestion),
  overall: z.string(),
});
export type EvalFeedback = z.infer<typeof EvalFeedback>;

// grading.json, beside a run's outputs/ (skill-creator's grader).
export const Grading = z.looseObject({
  expectations: z.array(GradedExpectation),
  summary: GradingSummary,
  execution_metrics: Metrics.optional(),
  timing: Timing.optional(),
  claims: z.array(Claim).optional(),
  user_notes_summary: UserNotesSummary.optional(),
  eval_feedback: EvalFeedback.optional(),
  judge_model: z.string().optional(),
  /** Which judge graded: claude-code, codex, gemini, opencode, copilot, acp:<command…>, anthropic, openai or sim. */
  judge_backend: z.string().optional(),
  judge_cost_usd: z.number().nonnegative().optional(),
  /** What a read-only agent judge tried and was refused (a write, an edit's permission): `<what> <target>: <reason>`. */
  judge_refused: z.array(z.string()).optional(),
});
export type Grading = z.infer<typeof Grading>;
