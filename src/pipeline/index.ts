export {
  defaultUnitCosts,
  defaultUnitSeconds,
  estimatePlan,
  estimateWallSeconds,
  type RunPlanEstimate,
  type UnitCosts,
  type UnitSeconds,
} from "./estimate.js";
export { evaluateGates, type GateResult, type Gates } from "./gates.js";
export type { PipelineOptions } from "./options.js";
export {
  type AgentPart,
  type AgentsPipelineOptions,
  type AgentsPipelineResult,
  runAgentsPipeline,
} from "./run-agents.js";
export {
  type PipelinePlan,
  type PipelineResult,
  planPipeline,
  runPipeline,
} from "./run-pipeline.js";
export { type Savings, savingsOf } from "./savings.js";
export {
  planEvalsWithStore,
  planTriggersWithStore,
  type StorePlan,
} from "./store-plan.js";
