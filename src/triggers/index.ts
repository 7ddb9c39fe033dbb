export { loadConditionSkills } from "./conditions.js";
export { checkDescription, skillWithDescription } from "./description.js";
export { type Detection, detectTrigger, stolenBy } from "./detect.js";
export { planTriggerRuns, syntheticName, type TriggerRunSpec } from "./plan.js";
export type { TriggerReporter } from "./reporter.js";
export { executeTriggerRun, type TriggerRunRecord } from "./run-trigger.js";
export { runTriggers, type TriggerOptions, type TriggerSummaryResult } from "./run-triggers.js";
export { scoreQuery, summarize as summarizeTriggers, type TriggerRunResult } from "./score.js";
export {
  type ConditionSets,
  checkConditionSets,
  flagSentence,
  parseConditionNames,
  type SideBySideFlag,
  sideBySide,
} from "./side-by-side.js";
export { withSuiteConditions } from "./suite-options.js";
