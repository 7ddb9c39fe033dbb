export { type Companion, loadInstalled } from "./companions.js";
export { conditionKeyParts, type KeyedConditions } from "./condition-key.js";
export {
  conditionsRecord,
  loadConditionSkills,
  type ProjectCondition,
  projectSnapshotDir,
  snapshotProject,
} from "./conditions.js";
export { type ContextCondition, loadContext } from "./context.js";
export { checkContextFits, contextRefused } from "./context-support.js";
export { checkDescription, skillWithDescription } from "./description.js";
export { type Detection, detectTrigger, stolenBy } from "./detect.js";
export { planTriggerRuns, syntheticName, type TriggerRunSpec } from "./plan.js";
export { agentsWithReplay } from "./replay/index.js";
export type { TriggerReporter } from "./reporter.js";
export { executeTriggerRun, type TriggerRunRecord } from "./run-trigger.js";
export { runTriggers, type TriggerOptions, type TriggerSummaryResult } from "./run-triggers.js";
export { scoreQuery, summarize as summarizeTriggers, type TriggerRunResult } from "./score.js";
export {
  type ConditionSets,
  checkConditionSets,
  flagSentence,
  hasRealCondition,
  parseConditionNames,
  type SideBySideFlag,
  sideBySide,
} from "./side-by-side.js";
export { withSuiteConditions } from "./suite-options.js";
