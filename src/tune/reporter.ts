import type { GradingResult } from "../contracts/history.js";
import type { IterationState, TerminationReason } from "../contracts/iteration-state.js";
import type { TuneEstimate } from "./estimate.js";

export type TunePhase = "execute" | "evaluate" | "improve";

/** Progress of a tune as events; the CLI decides how to show them. Every hook is optional. */
export interface TuneReporter {
  onStart?(info: {
    tuneDir: string;
    resumed: boolean;
    state: IterationState;
    estimate?: TuneEstimate;
    simulated: boolean;
  }): void;
  onIterationStart?(info: { round: number; maxIterations: number; version: string }): void;
  onPhase?(info: { round: number; phase: TunePhase; skill?: string }): void;
  onEvaluated?(info: {
    round: number;
    version: string;
    score: number;
    passRate: number;
    result: GradingResult;
    skillScores?: Record<string, number>;
    warning?: string;
  }): void;
  onImproved?(info: { round: number; targets: string[]; rolledBack: boolean; error?: string }): void;
  onError?(info: { round: number; phase: TunePhase; message: string }): void;
  onEnd?(info: {
    reason: TerminationReason | null;
    bestVersion: string | null;
    bestScore: number | null;
  }): void;
}
