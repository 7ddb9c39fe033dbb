export { type ActivationInput, activationOf } from "./activation/index.js";
export type { Agent, AgentRunRequest, AgentRunResult } from "./agents/index.js";
export { type AgentFactoryOptions, type AgentName, agentNames, createAgent } from "./agents/index.js";
export { readIteration, type WrittenBenchmark, writeBenchmark } from "./bench/index.js";
export {
  type CatalogOptions,
  type CatalogReporter,
  type CatalogSummary,
  catalogMatrix,
  runCatalog,
} from "./catalog/index.js";
export { type WriteComparisonOptions, type WrittenComparison, writeComparison } from "./compare/index.js";
export {
  Activation,
  Analysis,
  Benchmark,
  CatalogResults,
  Comparison,
  EvalMetadata,
  EvalsFile,
  Feedback,
  type FormatName,
  formatNames,
  formats,
  Grading,
  History,
  IterationRecord,
  IterationState,
  jsonSchemaOf,
  Metrics,
  OptimizeResults,
  SimScript,
  Timing,
  TriggerResults,
  TriggersFile,
} from "./contracts/index.js";
export { type DraftEvalsOptions, type DraftedSuite, draftEvals, scaffoldSkill } from "./create/index.js";
export { type ErrorCode, ExitCode, SkillgymError } from "./errors.js";
export type { Finding, Severity } from "./findings.js";
export {
  type GradeIterationOptions,
  type GradeIterationResult,
  gradeIteration,
  judgeGrader,
} from "./grade/index.js";
export { createJudge, type Judge, type JudgeBackend, JudgeError, type JudgeOptions } from "./judge/index.js";
export { type MergeOptions, type MergeResult, mergeShards } from "./merge/index.js";
export {
  type OptimizeOptions,
  type OptimizePlan,
  type OptimizeReporter,
  type OptimizeResult,
  planOptimize,
  runOptimize,
} from "./optimize/index.js";
export {
  type AgentsPipelineOptions,
  type AgentsPipelineResult,
  type PipelineOptions,
  type PipelinePlan,
  type PipelineResult,
  planPipeline,
  runAgentsPipeline,
  runPipeline,
} from "./pipeline/index.js";
export { startViewServer, type ViewServer, writeStaticReport } from "./report/index.js";
export {
  type EvalOptions,
  type EvalSummary,
  type RunRecord,
  type RunReporter,
  runEvals,
} from "./run/index.js";
export { loadSimScript, type SimOptions, type SimServer, startSim } from "./sim/index.js";
export { hashSkill, type LoadedSkill, loadSkill, packageSkill, type Skill } from "./skill/index.js";
export {
  discoverSuite,
  findProjectRoot,
  type LoadSuiteOptions,
  loadSuite,
  type ResolvedEval,
  type Suite,
} from "./suite/index.js";
export {
  agentsWithReplay,
  runTriggers,
  type TriggerOptions,
  type TriggerReporter,
  type TriggerSummaryResult,
} from "./triggers/index.js";
export {
  applyBest,
  runTune,
  runTunes,
  type TuneOptions,
  type TuneReporter,
  type TuneResult,
  type TunesOptions,
} from "./tune/index.js";
export { DEFAULT_OUTPUT_LIMITS, type OutputLimits } from "./workspace/index.js";
