import type { UnitCosts } from "../pipeline/estimate.js";

export interface TuneEstimate {
  evalRuns: number;
  improverRuns: number;
  judgeCalls: number;
  costUsd: number;
  unitCosts: UnitCosts;
}

/**
 * What a tune may cost at most: every iteration runs each skill's evals `runs` times (judge calls for evals with
 * expectations, one evaluator call per skill), and every iteration but the last runs the improver once.
 */
export function estimateTune(input: {
  suites: readonly { evals: number; judgedEvals: number }[];
  runs: number;
  iterations: number;
  unitCosts: UnitCosts;
}): TuneEstimate {
  const perIteration = input.suites.reduce((sum, s) => sum + s.evals * input.runs, 0);
  const judgedPerIteration = input.suites.reduce((sum, s) => sum + s.judgedEvals * input.runs + 1, 0);
  const evalRuns = perIteration * input.iterations;
  const improverRuns = Math.max(0, input.iterations - 1);
  const judgeCalls = judgedPerIteration * input.iterations;
  const u = input.unitCosts;
  return {
    evalRuns,
    improverRuns,
    judgeCalls,
    costUsd: (evalRuns + improverRuns) * u.agentRunUsd + judgeCalls * u.judgeCallUsd,
    unitCosts: u,
  };
}
