import type { GradingResult } from "../contracts/history.js";
import type { IterationState, TerminationReason } from "../contracts/iteration-state.js";

export type Termination = { terminate: true; reason: TerminationReason } | { terminate: false };

/** Points the score must gain over two iterations not to count as converged (the seed's rule). */
export const convergenceMinGain = 2;

type TerminationInput = Pick<
  IterationState,
  | "latest_score"
  | "quality_threshold"
  | "current_iteration"
  | "max_iterations"
  | "score_trend"
  | "consecutive_errors"
  | "max_errors"
>;

/**
 * The seed's termination rule, in its order: the threshold is met, the last iteration was run, the score gained
 * at most 2 points over the last two iterations (last minus two before), or too many iterations failed in a row.
 */
export function shouldTerminate(state: TerminationInput): Termination {
  if (state.latest_score !== null && state.latest_score >= state.quality_threshold)
    return { terminate: true, reason: "quality_threshold_met" };
  if (state.current_iteration >= state.max_iterations)
    return { terminate: true, reason: "max_iterations_reached" };
  if (state.score_trend.length >= 3) {
    const [first, , last] = state.score_trend.slice(-3) as [number, number, number];
    if (last - first <= convergenceMinGain) return { terminate: true, reason: "convergence_detected" };
  }
  if (state.consecutive_errors >= state.max_errors) return { terminate: true, reason: "error_limit_reached" };
  return { terminate: false };
}

export interface Measured {
  score: number;
  /** False when the judge's rubric could not be read and a fallback score stands in: such a version never wins. */
  reliable?: boolean;
}

/** Keep-the-winner: a candidate replaces the best version only when it scores strictly better (to 0.1 point). */
export function decideWinner(best: Measured, candidate: Measured): Exclude<GradingResult, "baseline"> {
  const a = Math.round(best.score * 10);
  const b = Math.round(candidate.score * 10);
  if (candidate.reliable === false) return b === a ? "tie" : "lost";
  if (b > a) return "won";
  return b === a ? "tie" : "lost";
}

/** Chain mode: the skill with the lowest score is the one improved; the earliest in the chain on a tie. */
export function weakestSkill(scores: Readonly<Record<string, number>>, order: readonly string[]): string {
  let weakest: string | undefined;
  for (const name of order) {
    const score = scores[name];
    if (score === undefined) continue;
    if (weakest === undefined || score < (scores[weakest] ?? Number.POSITIVE_INFINITY)) weakest = name;
  }
  // No skill at all leaves `weakest` undefined too.
  const fallback = order[0];
  if (fallback === undefined) throw new Error("weakestSkill needs at least one skill");
  return weakest ?? fallback;
}
