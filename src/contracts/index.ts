export * from "./checks.js";
export * from "./evals.js";
