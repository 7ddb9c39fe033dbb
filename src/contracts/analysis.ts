import { z } from "zod";
import { Side } from "./comparison.js";

export const suggestionCategories = [
  "instructions",
  "tools",
  "examples",
  "error_handling",
  "structure",
  "references",
] as const;

export const SuggestionPriority = z.enum(["high", "medium", "low"]);
export type SuggestionPriority = z.infer<typeof SuggestionPriority>;

export const ComparisonSummary = z.looseObject({
  winner: Side,
  winner_skill: z.string(),
  loser_skill: z.string(),
  comparator_reasoning: z.string(),
});
export type ComparisonSummary = z.infer<typeof ComparisonSummary>;

export const InstructionFollowingScore = z.looseObject({
  score: z.number().min(0).max(10),
  issues: z.array(z.string()),
});
export type InstructionFollowingScore = z.infer<typeof InstructionFollowingScore>;

export const ImprovementSuggestion = z.looseObject({
  priority: SuggestionPriority,
  /** One of `suggestionCategories` by convention; other words are kept. */
  category: z.string(),
  suggestion: z.string(),
  expected_impact: z.string().optional(),
});
export type ImprovementSuggestion = z.infer<typeof ImprovementSuggestion>;

// analysis.json (skill-creator's post-hoc analyzer): why the blind comparison's winner won.
export const Analysis = z.looseObject({
  comparison_summary: ComparisonSummary,
  winner_strengths: z.array(z.string()),
  loser_weaknesses: z.array(z.string()),
  instruction_following: z
    .looseObject({ winner: InstructionFollowingScore, loser: InstructionFollowingScore })
    .optional(),
  improvement_suggestions: z.array(ImprovementSuggestion),
  transcript_insights: z
    .looseObject({ winner_execution_pattern: z.string(), loser_execution_pattern: z.string() })
    .optional(),
});
export type Analysis = z.infer<typeof Analysis>;
