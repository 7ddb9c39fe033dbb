import { judgeMarkers } from "../contracts/judge-markers.js";
import type { SimRubric } from "../contracts/sim-script.js";

const DEFAULT_SCORE = 70;
const DEFAULT_SUGGESTION = "Simulated suggestion (skillgym sim): state each step of the workflow explicitly.";
const dimensionNames = ["clarity", "completeness", "correctness", "effectiveness", "efficiency"] as const;

/**
 * The simulator's tune evaluator: every dimension gets the score of the first `when` case whose pattern is found in
 * the prompt after the evaluator marker (the skill's files, its outputs), else the rubric's default.
 */
export function evaluatorAnswer(text: string, rubric: SimRubric | undefined): string {
  const evidence = text.slice(Math.max(0, text.indexOf(judgeMarkers.evaluator)));
  const match = rubric?.when?.find((c) => new RegExp(c.match, "i").test(evidence));
  const base = match?.score ?? rubric?.default ?? DEFAULT_SCORE;
  const overrides = { ...rubric?.dimensions, ...match?.dimensions };
  const dimensions = Object.fromEntries(dimensionNames.map((name) => [name, overrides[name] ?? base]));
  const suggestions = match?.suggestions ?? rubric?.suggestions ?? [DEFAULT_SUGGESTION];
  return JSON.stringify(
    {
      dimensions,
      strengths: [`Simulated strength (skillgym sim, scored ${base}/100)`],
      weaknesses: base >= 90 ? [] : ["Simulated weakness (skillgym sim)"],
      suggestions: suggestions.map((suggestion) => ({ priority: "high", text: suggestion })),
    },
    null,
    2,
  );
}
