import { selectEvals } from "../run/plan.js";
import type { StoreForecast } from "../run/store-forecast.js";
import type { Suite } from "../suite/model.js";

/** Rough prices per unit when no earlier iteration tells better; documented in the README. */
export const defaultUnitCosts = { agentRunUsd: 0.3, triggerRunUsd: 0.05, judgeCallUsd: 0.05 };
export type UnitCosts = typeof defaultUnitCosts;

/** Rough seconds per unit when no earlier iteration measured them; documented in the README. */
export const defaultUnitSeconds = { agentRun: 120, judgeCall: 20, triggerRun: 30 };
/** skillgym sim answers at once; what is left is Claude Code starting up and the workspace copies. */
export const simulatedUnitSeconds = { agentRun: 4, judgeCall: 0.5, triggerRun: 3 };
export type UnitSeconds = typeof defaultUnitSeconds & { measured?: boolean };

// Runs go in waves of `concurrency`; each eval run is graded as it finishes, in its own slot.
export function estimateWallSeconds(
  counts: { agentRuns: number; triggerRuns: number; judgeCalls: number },
  concurrency: number,
  unit: UnitSeconds,
): number {
  const waves = (n: number) => Math.ceil(n / Math.max(1, concurrency));
  return (
    waves(counts.agentRuns) * unit.agentRun +
    waves(counts.judgeCalls) * unit.judgeCall +
    waves(counts.triggerRuns) * unit.triggerRun
  );
}

/** A run the result store serves is a copy (and its key: the workspace staged and hashed), not an agent process. */
export const servedRunSeconds = 0.5;

/**
 * The wall time once the result store's forecast is known: what it serves takes a copy each, in the same waves;
 * only the rest runs at the measured (or default) pace. Without a forecast, every run runs.
 */
export function wallSecondsWithStore(
  counts: { agentRuns: number; triggerRuns: number; judgeCalls: number },
  store: { evalRuns?: StoreForecast; triggerRuns?: StoreForecast } | undefined,
  concurrency: number,
  unit: UnitSeconds,
): number {
  if (!store?.evalRuns && !store?.triggerRuns) return estimateWallSeconds(counts, concurrency, unit);
  const left = {
    agentRuns: store.evalRuns ? store.evalRuns.toRun : counts.agentRuns,
    judgeCalls: store.evalRuns ? store.evalRuns.judgeToRun : counts.judgeCalls,
    triggerRuns: store.triggerRuns ? store.triggerRuns.toRun : counts.triggerRuns,
  };
  const served = (store.evalRuns?.served ?? 0) + (store.triggerRuns?.served ?? 0);
  return (
    estimateWallSeconds(left, concurrency, unit) +
    Math.ceil(served / Math.max(1, concurrency)) * servedRunSeconds
  );
}

export interface RunPlanEstimate {
  agentRuns: number;
  triggerRuns: number;
  judgeCalls: number;
  costUsd: number;
  unitCosts: UnitCosts;
}

/** What `run` would start, and roughly what it would cost, without starting anything. */
export function estimatePlan(input: {
  suite: Suite;
  evalIds?: readonly string[];
  configurations: number;
  runs: number;
  triggerRuns: number;
  grade: boolean;
  unitCosts: UnitCosts;
}): RunPlanEstimate {
  const evals = input.evalIds ? selectEvals(input.suite.evals, input.evalIds) : input.suite.evals;
  const agentRuns = evals.length * input.configurations * input.runs;
  const judgeCalls = input.grade
    ? evals.filter((e) => e.expectations.length > 0).length * input.configurations * input.runs
    : 0;
  const triggerRuns = input.suite.triggers.length * input.triggerRuns;
  return priced({ agentRuns, triggerRuns, judgeCalls }, input.unitCosts);
}

/** The counts at the unit prices. */
export function priced(
  counts: { agentRuns: number; triggerRuns: number; judgeCalls: number },
  u: UnitCosts,
): RunPlanEstimate {
  const { agentRuns, triggerRuns, judgeCalls } = counts;
  return {
    agentRuns,
    triggerRuns,
    judgeCalls,
    costUsd: agentRuns * u.agentRunUsd + triggerRuns * u.triggerRunUsd + judgeCalls * u.judgeCallUsd,
    unitCosts: u,
  };
}
