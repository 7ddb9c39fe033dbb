import type {
  IterationEvaluation,
  IterationState,
  TuneIteration,
} from "../../src/contracts/iteration-state.js";

// Hand-built tune states for the pure parts of the loop (the report, the progress helpers, the context).

export const dims = (n: number) => ({
  clarity: n,
  completeness: n,
  correctness: n,
  effectiveness: n,
  efficiency: n,
});

export function measured(score: number, passRate: number, rubric: number): IterationEvaluation {
  return {
    score,
    rubric_score: rubric,
    dimensions: dims(rubric),
    expectation_pass_rate: passRate,
    suggestions: [],
  };
}

export function iteration(round: number, fields: Partial<TuneIteration> = {}): TuneIteration {
  return {
    round,
    version: `v${round - 1}`,
    parent: round === 1 ? null : "v0",
    status: "completed",
    execution: null,
    evaluation: null,
    improvement: null,
    ...fields,
  };
}

export function tuneState(fields: Partial<IterationState> = {}): IterationState {
  const iterations = fields.iterations ?? [];
  return {
    status: "running",
    target_skills: ["greeter"],
    skill_paths: ["/home/me/skills/greeter"],
    evals_paths: ["/home/me/skills/greeter/evals/evals.json"],
    execution_mode: "single",
    current_iteration: iterations.length,
    max_iterations: 5,
    quality_threshold: 80,
    latest_score: null,
    best_score: null,
    current_best: null,
    score_trend: [],
    converged: false,
    error_count: 0,
    max_errors: 3,
    consecutive_errors: 0,
    termination_reason: null,
    started_at: "2026-01-15T10:30:00.000Z",
    updated_at: "2026-01-15T10:30:00.000Z",
    iterations,
    ...fields,
  };
}
