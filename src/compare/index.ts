export type { OutputFile } from "../runlog/output-files.js";
export {
  type AnalysisResult,
  type AnalyzeComparisonOptions,
  type AnalyzedRun,
  analyzeComparison,
} from "./analyzer.js";
export { assignLabels, blindText, type LabelAssignment, type Rng, seededRng } from "./blind.js";
export { compareBothOrders, reconcileOrders } from "./both-orders.js";
export { type CompareRunsOptions, type ComparisonResult, compareRuns } from "./comparator.js";
export { type ReadRunOptions, type RunSnapshot, readRun } from "./read-run.js";
export { type SkillSource, skillSourceOf } from "./skill-source.js";
export {
  type ComparisonMapping,
  type WriteComparisonOptions,
  type WrittenComparison,
  writeComparison,
} from "./write-comparison.js";
