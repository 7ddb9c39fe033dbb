import type { Benchmark } from "../contracts/benchmark.js";
import type { NoiseEval, NoiseReport } from "../contracts/noise.js";
import { verdictOf } from "./verdict.js";

const widest = (low: number, high: number) => Math.max(Math.abs(low), Math.abs(high));

/**
 * The noise floor from a benchmark whose two arms ran the same skill (with_skill against itself as old_skill): per
 * eval, how far the identical arms' paired interval reaches and what it would have been called at the floor; over
 * all evals, the widest end of the whole interval. Undefined when the benchmark has no paired interval at all.
 */
export function noiseOf(
  benchmark: Benchmark,
  context: { iterationDir: string; effectFloor: number; measuredAt: string },
): NoiseReport | undefined {
  const overall = benchmark.statistics?.delta_pass_rate;
  if (!overall) return undefined;
  const evals = (benchmark.statistics?.per_eval ?? []).map((e): NoiseEval => {
    const d = e.delta_pass_rate;
    return {
      eval_id: e.eval_id,
      ...(e.eval_name ? { eval_name: e.eval_name } : {}),
      ci_low: d ? d.ci_low : null,
      ci_high: d ? d.ci_high : null,
      spread: d ? widest(d.ci_low, d.ci_high) : null,
      verdict: d ? verdictOf(d, context.effectFloor) : null,
    };
  });
  const judged = evals.filter((e) => e.verdict !== null);
  const falseCalls = judged.filter((e) => e.verdict === "helps" || e.verdict === "hurts").length;
  return {
    measured_at: context.measuredAt,
    iteration_dir: context.iterationDir,
    runs_per_arm: benchmark.metadata.runs_per_configuration,
    effect_floor: context.effectFloor,
    evals,
    spread: widest(overall.ci_low, overall.ci_high),
    false_calls: falseCalls,
    false_call_rate: judged.length === 0 ? null : Math.round((falseCalls / judged.length) * 10_000) / 10_000,
  };
}
