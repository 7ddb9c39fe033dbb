export { type CheckContext, describeCheck, gradeChecks } from "./checks/index.js";
export { type GradedPart, gradeIterations, iterationSandboxed } from "./grade-agents.js";
export { type GradeEarlierOptions, gradeEarlierRun, gradingHooks } from "./grade-earlier.js";
export {
  type GradeIterationOptions,
  type GradeIterationResult,
  gradeIteration,
  readEvents,
} from "./grade-iteration.js";
export { gradeOnFinish } from "./grade-on-finish.js";
export { type ExpectationGrader, type GradeRunInput, type GradeRunResult, gradeRun } from "./grade-run.js";
export { judgeGrader } from "./judge-grader.js";
export { rebuildWorkspace, recordedChanges } from "./rebuild.js";
