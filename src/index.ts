export * from "./contracts/index.js";
export { ExitCode, SkillgymError } from "./errors.js";
export type { Finding, Severity } from "./findings.js";
