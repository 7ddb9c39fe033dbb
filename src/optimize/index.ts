export { applyDescription, withDescription } from "./apply.js";
export {
  bestIteration,
  isPerfect,
  SCORE_METRIC,
  stopReason,
  subsetScore,
  trainFailures,
} from "./decide.js";
export { estimateOptimize, type OptimizeEstimate, type OptimizeUnitCosts } from "./estimate.js";
export { type Proposal, proposeDescription } from "./improve.js";
export { type DescriptionAnswer, readDescriptionAnswer } from "./improver-answer.js";
export { buildImproverPrompt, type EarlierAttempt, type ImproverInput } from "./improver-prompt.js";
export { type NoiseOptions, testGain } from "./noise.js";
export { optimizeFolderName, writeOptimizeOutput } from "./output.js";
export { type OptimizeOptions, type OptimizePlan, planOptimize } from "./plan.js";
export { renderOptimizeReport } from "./report-html.js";
export type { OptimizeReporter } from "./reporter.js";
export { type OptimizeResult, runOptimize } from "./run-optimize.js";
export { replayDecided, testFirstRunScreened } from "./screen.js";
export { type QuerySplit, splitQueries } from "./split.js";
