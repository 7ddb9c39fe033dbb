import { z } from "zod";
import { type DimensionScores, rubricDimensions } from "../contracts/iteration-state.js";
import { jsonObjectsIn } from "../judge/json-objects.js";

const Score = z.number().min(0).max(100);
const Suggestion = z.union([
  z.string(),
  z.looseObject({ priority: z.string().optional(), text: z.string() }),
]);

const Answer = z.looseObject({
  dimensions: z.looseObject({
    clarity: Score,
    completeness: Score,
    correctness: Score,
    effectiveness: Score,
    efficiency: Score,
  }),
  strengths: z.array(z.string()).default([]),
  weaknesses: z.array(z.string()).default([]),
  suggestions: z.array(Suggestion).default([]),
});

export interface EvaluatorVerdict {
  dimensions: DimensionScores;
  strengths: string[];
  weaknesses: string[];
  /** Most important first: "[high] …", "[medium] …", "[low] …". */
  suggestions: string[];
}

const priorities = ["high", "medium", "low"] as const;

function orderSuggestions(items: z.infer<typeof Suggestion>[]): string[] {
  const normalized = items.map((item) => {
    const text = typeof item === "string" ? item : item.text;
    const raw = typeof item === "string" ? undefined : item.priority?.toLowerCase();
    // No priority, or one not known: medium.
    const priority = priorities.find((p) => p === raw) ?? "medium";
    return { priority, text: text.trim() };
  });
  return normalized
    .filter((s) => s.text !== "")
    .sort((a, b) => priorities.indexOf(a.priority) - priorities.indexOf(b.priority))
    .map((s) => `[${s.priority}] ${s.text}`);
}

/** The evaluator's JSON answer, if the text holds one in the expected shape. */
export function readEvaluatorAnswer(text: string): EvaluatorVerdict | undefined {
  for (const candidate of jsonObjectsIn(text)) {
    const parsed = Answer.safeParse(candidate);
    if (!parsed.success) continue;
    const { dimensions, strengths, weaknesses, suggestions } = parsed.data;
    return {
      dimensions: {
        clarity: dimensions.clarity,
        completeness: dimensions.completeness,
        correctness: dimensions.correctness,
        effectiveness: dimensions.effectiveness,
        efficiency: dimensions.efficiency,
      },
      strengths,
      weaknesses,
      suggestions: orderSuggestions(suggestions),
    };
  }
  return undefined;
}

/** The seed's fallback for an answer that is not the JSON asked for: the five scores picked out of the text. */
export function scoresFromText(text: string): DimensionScores | undefined {
  const found: Partial<DimensionScores> = {};
  for (const name of rubricDimensions) {
    const match = new RegExp(`${name}["'*\\s]*[:=\\-–]?\\s*(\\d{1,3}(?:\\.\\d+)?)`, "i").exec(text);
    const value = match ? Number(match[1]) : Number.NaN;
    if (!Number.isFinite(value) || value > 100) return undefined;
    found[name] = value;
  }
  return found as DimensionScores;
}
