import type { OptimizeExitReason, OptimizeIteration } from "../contracts/optimize-results.js";
import type { OptimizeEstimate } from "./estimate.js";
import type { Proposal } from "./improve.js";

/** Progress of the description optimizer; every hook optional. */
export interface OptimizeReporter {
  /** Before anything runs: where the results go and what the loop may cost at most. */
  onPlan?(info: {
    dir: string;
    train: number;
    test: number;
    estimate: OptimizeEstimate;
    maxCostUsd?: number;
    simulated: boolean;
    /** Set when --resume continues an optimization: how many of its iterations were kept. */
    resumed?: { kept: number };
  }): void;
  onIterationStart?(info: { iteration: number; description: string }): void;
  onProposal?(info: { iteration: number; proposal: Proposal }): void;
  onIterationEnd?(iteration: OptimizeIteration): void;
  onStop?(info: { reason: OptimizeExitReason }): void;
}
