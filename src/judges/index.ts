export { type CheckedPart, checkJudgesOfIterations } from "./check-agents.js";
export { type CheckedJudges, type CheckJudgesOptions, checkJudges, JUDGES_FILE } from "./check-judges.js";
export { type JudgeSpec, parseJudgeSpecs } from "./judge-spec.js";
export { buildJudgesReport, judgeGate } from "./judges-report.js";
export { agreementOf, cohenKappa, type KappaPoint, type RatedPair } from "./kappa.js";
