export type { CheckContext, CheckSandbox, CheckVerdict } from "./context.js";
export { describeCheck, gradeChecks } from "./grade-checks.js";
