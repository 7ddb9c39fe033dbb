import type { BaselineConfiguration, Configuration } from "../contracts/benchmark.js";
import type { EvalId } from "../contracts/evals.js";
import { type EvalData, evalKey, isGraded, type RunData } from "./model.js";
import { type BootstrapOptions, type DeltaInterval, mean, pairedBootstrap } from "./statistics.js";

export interface EvalComparison {
  evalId: EvalId;
  evalName: string;
  /** Mean pass rate of the graded runs; null when none was graded. */
  withSkillPassRate: number | null;
  baselinePassRate: number | null;
  /** with_skill − baseline, one per run number graded in both configurations. */
  differences: number[];
  delta: DeltaInterval | null;
}

export interface PairedDelta {
  baseline: BaselineConfiguration;
  overall: DeltaInterval | null;
  perEval: EvalComparison[];
  pairs: number;
  pairedEvals: number;
}

function gradedRates(runs: readonly RunData[], configuration: Configuration): Map<number, number> {
  const rates = new Map<number, number>();
  for (const run of runs) {
    if (run.configuration === configuration && isGraded(run))
      rates.set(run.runNumber, run.grading.summary.pass_rate);
  }
  return rates;
}

function meanOrNull(values: Iterable<number>): number | null {
  const list = [...values];
  return list.length === 0 ? null : Math.round(mean(list) * 10_000) / 10_000;
}

/** Pairs with_skill and baseline runs by (eval, run number) when both were graded, and bootstraps the difference. */
export function pairedDelta(
  evals: readonly EvalData[],
  runs: readonly RunData[],
  baseline: BaselineConfiguration,
  options: BootstrapOptions,
): PairedDelta {
  const perEval = evals.map((e): EvalComparison => {
    const own = runs.filter((r) => evalKey(r.evalId) === evalKey(e.id));
    const withSkill = gradedRates(own, "with_skill");
    const base = gradedRates(own, baseline);
    const differences = [...withSkill.keys()]
      .filter((k) => base.has(k))
      .sort((a, b) => a - b)
      .map((k) => withSkill.get(k)! - base.get(k)!);
    return {
      evalId: e.id,
      evalName: e.name,
      withSkillPassRate: meanOrNull(withSkill.values()),
      baselinePassRate: meanOrNull(base.values()),
      differences,
      delta: pairedBootstrap([differences], options),
    };
  });
  const groups = perEval.map((e) => e.differences).filter((d) => d.length > 0);
  return {
    baseline,
    overall: pairedBootstrap(groups, options),
    perEval,
    pairs: groups.reduce((sum, g) => sum + g.length, 0),
    pairedEvals: groups.length,
  };
}
