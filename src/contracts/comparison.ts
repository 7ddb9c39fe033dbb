import { z } from "zod";
import { Count, Rate } from "./primitives.js";

/** The blind labels of the two outputs. */
export const Side = z.enum(["A", "B"]);
export type Side = z.infer<typeof Side>;

export const ComparisonWinner = z.enum(["A", "B", "TIE"]);
export type ComparisonWinner = z.infer<typeof ComparisonWinner>;

const CriterionScore = z.number().min(0).max(5);
const TenPointScore = z.number().min(0).max(10);

/** Criterion → 1–5 score; the comparator adapts the criteria to the task. */
export const CriterionScores = z.record(z.string(), CriterionScore);
export type CriterionScores = z.infer<typeof CriterionScores>;

export const RubricScores = z.looseObject({
  content: CriterionScores,
  structure: CriterionScores,
  content_score: CriterionScore,
  structure_score: CriterionScore,
  overall_score: TenPointScore,
});
export type RubricScores = z.infer<typeof RubricScores>;

export const OutputQuality = z.looseObject({
  score: TenPointScore,
  strengths: z.array(z.string()),
  weaknesses: z.array(z.string()),
});
export type OutputQuality = z.infer<typeof OutputQuality>;

export const ExpectationDetail = z.looseObject({
  text: z.string(),
  passed: z.boolean(),
  evidence: z.string().optional(),
});
export type ExpectationDetail = z.infer<typeof ExpectationDetail>;

export const SideExpectationResults = z.looseObject({
  passed: Count,
  total: Count,
  pass_rate: Rate,
  details: z.array(ExpectationDetail).optional(),
});
export type SideExpectationResults = z.infer<typeof SideExpectationResults>;

function perSide<T extends z.ZodType>(schema: T) {
  return z.looseObject({ A: schema, B: schema });
}

// comparison-N.json (skill-creator's blind comparator); `expectation_results` only when expectations were given.
export const Comparison = z.looseObject({
  winner: ComparisonWinner,
  reasoning: z.string(),
  rubric: perSide(RubricScores),
  output_quality: perSide(OutputQuality),
  expectation_results: perSide(SideExpectationResults).optional(),
  /** Shown in both orders, the judge's winner changed with the order: the verdict is recorded as a tie. */
  position_bias: z.boolean().optional(),
});
export type Comparison = z.infer<typeof Comparison>;
