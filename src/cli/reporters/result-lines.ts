import { redundancyCost } from "../../bench/labels.js";
import type { Benchmark } from "../../contracts/benchmark.js";
import { formatDuration } from "./status-line.js";

export const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? "n/a" : `${(x * 100).toFixed(0)}%`;

/** The result of artifact evals: with_skill's pass rate, the baseline's, and the delta with its interval. */
export function passRatesLine(b: Benchmark): string {
  const withSkill = b.run_summary.with_skill?.pass_rate.mean;
  const baselineName = b.metadata.baseline_configuration;
  const baseline = baselineName ? b.run_summary[baselineName]?.pass_rate.mean : undefined;
  const d = b.statistics?.delta_pass_rate;
  const delta = d
    ? `${d.estimate >= 0 ? "+" : ""}${d.estimate.toFixed(2)} (95% CI ${d.ci_low.toFixed(2)}..${d.ci_high.toFixed(2)}${d.distinguishable ? "" : ", not distinguishable from noise"})`
    : (b.run_summary.delta?.pass_rate ?? "n/a");
  return `evals: with_skill ${pct(withSkill)}${baselineName ? `, ${baselineName} ${pct(baseline)}, delta ${delta}` : ""}`;
}

/** The verdict for the skill, and whether it is redundant on this model; none without a paired interval. */
export function verdictLines(b: Benchmark): string[] {
  const stats = b.statistics;
  if (!stats?.verdict) return [];
  const lines = [`verdict: the skill ${describeVerdictShort(stats.verdict)}`];
  if (stats.redundant) {
    const cost = redundancyCost(stats.redundant);
    lines.push(
      `redundant on this model: the baseline already passes ${pct(stats.redundant.baseline_pass_rate)} and the skill has no effect` +
        (cost ? ` (it costs ${cost} a run)` : ""),
    );
  }
  return lines;
}

function describeVerdictShort(v: NonNullable<NonNullable<Benchmark["statistics"]>["verdict"]>): string {
  const floor = `±${v.floor.toFixed(2)}`;
  if (v.verdict === "inconclusive")
    return v.runs_to_decide !== undefined
      ? `is inconclusive at ${floor} (about ${v.runs_to_decide} runs per configuration would likely decide it)`
      : `is inconclusive at ${floor} (its estimate sits on the floor)`;
  return v.verdict === "no effect" ? `has no effect (within ${floor})` : `${v.verdict} (beyond ${floor})`;
}

/** What `--dry-run` says about time: runs in waves of `concurrency` at the measured or default pace. */
export function wallTimeLine(plan: {
  wallSeconds: number;
  concurrency: number;
  unitSeconds: { agentRun: number; triggerRun: number; measured?: boolean };
}): string {
  const u = plan.unitSeconds;
  return (
    `estimated wall time: about ${formatDuration(plan.wallSeconds * 1000)} at --concurrency ${plan.concurrency} ` +
    `(${formatDuration(u.agentRun * 1000)} per eval run, ${formatDuration(u.triggerRun * 1000)} per trigger run: ` +
    `${u.measured ? "measured in this workspace" : "defaults"})`
  );
}
