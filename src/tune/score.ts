import {
  type DimensionScores,
  type RubricDimension,
  rubricDimensions,
  rubricWeights,
} from "../contracts/iteration-state.js";

/** How the composite 0–100 score mixes what was measured with what the judge thinks. */
export const compositeWeights = { expectations: 0.5, rubric: 0.5 } as const;

const tenth = (x: number) => Math.round(x * 10) / 10;
const clamp100 = (x: number) => Math.min(100, Math.max(0, x));

/** The rubric's dimensions weighted by `rubricWeights` (clarity .20, completeness .25, correctness .25, …). */
export function rubricScore(dimensions: DimensionScores): number {
  let sum = 0;
  for (const name of rubricDimensions) sum += rubricWeights[name] * dimensions[name];
  return tenth(clamp100(sum));
}

/** Composite 0–100: half the expectation pass rate × 100, half the weighted rubric. */
export function compositeScore(passRate: number, rubric: number): number {
  return tenth(clamp100(compositeWeights.expectations * passRate * 100 + compositeWeights.rubric * rubric));
}

export function meanDimensions(all: readonly DimensionScores[]): DimensionScores {
  const mean = (name: RubricDimension) =>
    all.length === 0 ? 0 : tenth(all.reduce((sum, d) => sum + d[name], 0) / all.length);
  return {
    clarity: mean("clarity"),
    completeness: mean("completeness"),
    correctness: mean("correctness"),
    effectiveness: mean("effectiveness"),
    efficiency: mean("efficiency"),
  };
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
