import type { StorePlan } from "../../pipeline/index.js";
import type { StoreForecast } from "../../run/store-forecast.js";

const usd = (x: number) => `$${x.toFixed(2)}`;

function kindLine(what: string, f: StoreForecast, upTo: boolean): string {
  const judge =
    f.judgeServed + f.judgeToRun > 0 ? `; judge calls: ${f.judgeServed} served, ${f.judgeToRun} to make` : "";
  const settled = f.runs - f.served - f.toRun;
  const unneeded = settled > 0 ? `, ${settled} not needed (settled)` : "";
  return `  ${what}: ${f.served} of ${f.runs} served by the store, ${upTo ? "at most " : ""}${f.toRun} to run${unneeded}${judge}`;
}

/** What `--dry-run` says about the result store: what it serves of each kind of run, and what the rest costs. */
export function storePlanLines(plan: StorePlan): string[] {
  const forecasts = [plan.evalRuns, plan.triggerRuns].filter((f): f is StoreForecast => f !== undefined);
  const dir = forecasts.find((f) => f.storeDir)?.storeDir;
  if (!dir) return ["result store: not read (--fresh, or none): every run is made"];
  const left = forecasts.reduce((n, f) => n + f.toRun + f.judgeToRun, 0);
  return [
    `result store: ${dir}`,
    ...(plan.evalRuns ? [kindLine("eval runs", plan.evalRuns, false)] : []),
    ...(plan.triggerRuns ? [kindLine("trigger runs", plan.triggerRuns, true)] : []),
    left === 0
      ? `all runs would be served by the store: the rest costs ${usd(0)} (saves about ${usd(plan.savedUsd)})`
      : `the rest costs about ${usd(plan.costUsd)} (the store saves about ${usd(plan.savedUsd)})`,
  ];
}

/** With `--shard i/n`: this shard's share of the whole plan, which the other lines count. */
export function shardShareLine(plan: {
  agentRuns: number;
  triggerRuns: number;
  shard?: { index: number; count: number; agentRuns: number; triggerRuns: number };
}): string | undefined {
  const s = plan.shard;
  if (!s) return undefined;
  const mine = plan.agentRuns + plan.triggerRuns;
  const all = s.agentRuns + s.triggerRuns;
  return `shard ${s.index}/${s.count}: ${mine} of ${all} runs (${plan.agentRuns} of ${s.agentRuns} eval runs, ${plan.triggerRuns} of ${s.triggerRuns} trigger runs); the lines below are this shard's`;
}
