export type { CheckContext, CheckVerdict } from "./context.js";
export { describeCheck, gradeChecks } from "./grade-checks.js";
