export * from "./agents/index.js";
export * from "./contracts/index.js";
export { ExitCode, SkillgymError } from "./errors.js";
export type { Finding, Severity } from "./findings.js";
export * from "./run/index.js";
export { loadSimScript, type SimServer, startSim } from "./sim/index.js";
export { hashSkill, loadSkill, packageSkill, type Skill } from "./skill/index.js";
export { discoverSuite, findProjectRoot, loadSuite, type ResolvedEval, type Suite } from "./suite/index.js";
export { stageWorkspace, type WorkspacePlan } from "./workspace/index.js";
