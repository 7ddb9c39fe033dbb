export { applyBest } from "./apply.js";
export {
  convergenceMinGain,
  decideWinner,
  type Measured,
  shouldTerminate,
  type Termination,
  weakestSkill,
} from "./decisions.js";
export { estimateTune, type TuneEstimate } from "./estimate.js";
export { renderFinalReport } from "./final-report.js";
export { historyFromState } from "./history.js";
export type { TuneOptions } from "./options.js";
export type { TunePhase, TuneReporter } from "./reporter.js";
export { runTune, type SkillDiff, type TuneResult } from "./run-tune.js";
export { runTunes, type TunesOptions, tuneGroups } from "./run-tunes.js";
export { compositeScore, compositeWeights, rubricScore } from "./score.js";
export { type TuneSettings, tuneSettings } from "./settings.js";
export { unifiedDiff } from "./unified-diff.js";
