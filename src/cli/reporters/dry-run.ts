import type { PipelinePlan, StorePlan } from "../../pipeline/index.js";
import type { StoreForecast } from "../../run/store-forecast.js";
import { wallTimeLine } from "./result-lines.js";
import { formatDuration } from "./status-line.js";

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
  const forecasts = [plan.evalRuns, plan.triggerRuns, plan.catalogRuns].filter(
    (f): f is StoreForecast => f !== undefined,
  );
  const dir = forecasts.find((f) => f.storeDir)?.storeDir;
  if (!dir) return ["result store: not read (--fresh, or none): every run is made"];
  const left = forecasts.reduce((n, f) => n + f.toRun + f.judgeToRun, 0);
  return [
    `result store: ${dir}`,
    ...(plan.evalRuns ? [kindLine("eval runs", plan.evalRuns, false)] : []),
    ...(plan.triggerRuns ? [kindLine("trigger runs", plan.triggerRuns, true)] : []),
    ...(plan.catalogRuns ? [kindLine("catalog runs", plan.catalogRuns, false)] : []),
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

/** What `run --dry-run` prints of one agent's plan: the runs, a rough cost, the wall time and the store's part. */
export function pipelinePlanLines(plan: PipelinePlan): string[] {
  const share = shardShareLine(plan);
  const u = plan.unitCosts;
  return [
    ...(share ? [share] : []),
    `plan for ${plan.skill}: ${plan.agentRuns} eval runs, ${plan.triggerRuns} trigger runs, ${plan.judgeCalls} judge calls`,
    `estimated cost: about ${usd(plan.costUsd)} (rough: ${usd(u.agentRunUsd)} per eval run, ` +
      `${usd(u.triggerRunUsd)} per trigger run, ${usd(u.judgeCallUsd)} per judge call)`,
    wallTimeLine(plan),
    ...(plan.store ? storePlanLines(plan.store) : []),
  ];
}

/**
 * What `run --agent a,b,… --dry-run` prints: the plan every agent shares, then per agent the wall time and the
 * store's part as a run of that agent alone says them, then the agents together.
 */
export function agentPlansLines(
  plans: readonly { agent: string; model?: string; plan: PipelinePlan }[],
): string[] {
  const first = plans[0]?.plan;
  if (!first) return [];
  const share = shardShareLine(first);
  const u = first.unitCosts;
  const n = plans.length;
  // The parts are the agents, the models of one agent (`--model a,b`), or both.
  const models = new Set(plans.map((p) => p.model)).size;
  const unit = models <= 1 ? "agent" : models === n ? "model" : "part";
  const units = `${unit}s`;
  const sum = (f: (p: PipelinePlan) => number) => plans.reduce((x, p) => x + f(p.plan), 0);
  const forecast = plans.every(
    (p) => p.plan.store?.evalRuns?.storeDir ?? p.plan.store?.triggerRuns?.storeDir,
  );
  return [
    ...(share ? [`${share}, per ${unit}`] : []),
    `plan for ${first.skill}, per ${unit} (${plans.map((p) => p.agent).join(", ")}): ${first.agentRuns} eval runs, ${first.triggerRuns} trigger runs, ${first.judgeCalls} judge calls`,
    `estimated cost per ${unit}: about ${usd(first.costUsd)} (rough: ${usd(u.agentRunUsd)} per eval run, ` +
      `${usd(u.triggerRunUsd)} per trigger run, ${usd(u.judgeCallUsd)} per judge call); all ${n} ${units}: about ${usd(first.costUsd * n)}`,
    ...plans.flatMap(({ agent, plan }) => [
      `${agent}:`,
      ...[wallTimeLine(plan), ...(plan.store ? storePlanLines(plan.store) : [])].map((l) => `  ${l}`),
    ]),
    `all ${n} ${units}: estimated wall time about ${formatDuration(sum((p) => p.wallSeconds) * 1000)} (the ${units} run one after another)` +
      (forecast
        ? `; what the store does not serve costs about ${usd(sum((p) => p.store?.costUsd ?? 0))}`
        : ""),
  ];
}
