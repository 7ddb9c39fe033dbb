export { defaultUnitCosts, estimatePlan, type RunPlanEstimate, type UnitCosts } from "./estimate.js";
export { evaluateGates, type GateResult, type Gates } from "./gates.js";
export { type PipelineOptions, type PipelineResult, planPipeline, runPipeline } from "./run-pipeline.js";
