import type { TerminationReason } from "./iteration-state.js";
import type { OptimizeExitReason } from "./optimize-results.js";

/** Why a tune stopped, as the CLI and tune-report.md say it. */
export const tuneExitText: Record<TerminationReason, string> = {
  quality_threshold_met: "the quality threshold was met",
  max_iterations_reached: "the last iteration was run",
  convergence_detected: "the score converged (at most 2 points gained over two iterations)",
  error_limit_reached: "too many iterations in a row failed",
  budget_exhausted: "--max-cost was reached",
};

/** Why a description optimization stopped, as the CLI and report.html say it. */
export const optimizeExitText: Record<OptimizeExitReason, string> = {
  running: "still running",
  train_perfect: "every train query passes",
  max_iterations: "reached --max-iterations",
  test_plateau: "the test score stopped moving",
  improver_failed: "the improver gave no usable description twice in a row",
  budget: "the next iteration would cross --max-cost",
  cancelled: "cancelled",
  error: "an error stopped it",
};
