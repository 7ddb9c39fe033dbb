import type { History, HistoryIteration } from "../contracts/history.js";
import { type IterationState, targetSkillsOf } from "../contracts/iteration-state.js";

/** history.json (skill-creator's Improve-mode file) derived from the tune's state: one entry per measured version. */
export function historyFromState(state: IterationState): History {
  const iterations: HistoryIteration[] = [];
  for (const iteration of state.iterations) {
    if (!iteration.evaluation || !iteration.grading_result) continue;
    iterations.push({
      version: iteration.version,
      parent: iteration.parent ?? null,
      expectation_pass_rate: iteration.evaluation.expectation_pass_rate,
      grading_result: iteration.grading_result,
      is_current_best: iteration.version === state.current_best,
      score: iteration.evaluation.score,
    });
  }
  return {
    started_at: state.started_at,
    skill_name: targetSkillsOf(state).join(","),
    current_best: state.current_best ?? "v0",
    iterations,
  };
}
