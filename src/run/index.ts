export { evalDirName } from "../runlog/layout.js";
export { type Budget, createBudget } from "./budget.js";
export {
  type EarlierRun,
  executeRun,
  type FinishedRun,
  type RetryPolicy,
  type RunContext,
} from "./execute-run.js";
export { chooseIteration, defaultWorkspace } from "./iteration.js";
export { type LoadedInputs, loadInputs } from "./load-inputs.js";
export { planRuns, type RunSpec } from "./plan.js";
export type { RunReporter } from "./reporter.js";
export { defaultRetry, type EvalOptions, type EvalSummary, runEvals } from "./run-evals.js";
export type { RunRecord } from "./run-record.js";
export { transcriptMarkdown } from "./transcript-md.js";
export { runWorkspacePlan } from "./workspace-plan.js";
