import type { MergePartial, ShardShortfall } from "../contracts/shard.js";
import { shareSize } from "../shard/index.js";
import { type ShardCheck, shardOf } from "./check-shards.js";
import type { ShardData } from "./read-shard.js";

type Counts = { eval: number; trigger: number };

/** The whole plan's runs, as a shard's records state it: evals × configurations × runs, queries × runs. */
export function plannedRuns(s: ShardData): Counts {
  const plan = s.iteration?.plan;
  const triggers = s.triggerPlan;
  return {
    eval: plan ? plan.evals.length * plan.configurations.length * plan.runs_per_configuration : 0,
    trigger: triggers ? triggers.queries.length * triggers.runs_per_query : 0,
  };
}

function shareOf(whole: Counts, index: number, count: number): Counts {
  return {
    eval: shareSize(whole.eval, { index, count }),
    trigger: shareSize(whole.trigger, { index, count }),
  };
}

function stateOf(s: ShardData): ShardShortfall["state"] | undefined {
  const statuses = [s.iteration?.status, s.triggerPlan?.status];
  if (statuses.includes("running")) return "running";
  if (statuses.includes("interrupted")) return "interrupted";
  return undefined;
}

/** What one given shard lacks of its share: undefined when it finished every run of it. */
export function shortfallOf(s: ShardData): ShardShortfall | undefined {
  const { index, count } = shardOf(s);
  const planned = shareOf(plannedRuns(s), index, count);
  const missing = {
    eval: Math.max(0, planned.eval - s.finished.evalRuns),
    trigger: Math.max(0, planned.trigger - s.finished.triggerRuns),
  };
  const state = stateOf(s) ?? (missing.eval + missing.trigger > 0 ? "incomplete" : undefined);
  if (!state) return undefined;
  return { index, source: s.source, state, planned_runs: planned, missing_runs: missing };
}

/**
 * Everything the merged iteration lacks: the shards given short of their share and those not given at all
 * (their whole share, from the plan the others record); undefined when nothing is missing.
 */
export function partialOf(shards: readonly ShardData[], check: ShardCheck): MergePartial | undefined {
  const first = shards[0];
  if (!first) return undefined;
  const whole = plannedRuns(first);
  const given = shards.flatMap((s) => shortfallOf(s) ?? []);
  const absent: ShardShortfall[] = check.missing.map((index) => {
    const share = shareOf(whole, index, check.count);
    return { index, state: "missing", planned_runs: share, missing_runs: share };
  });
  const all = [...given, ...absent].sort((a, b) => a.index - b.index);
  if (all.length === 0) return undefined;
  return {
    count: check.count,
    planned_runs: whole,
    missing_runs: {
      eval: all.reduce((n, s) => n + s.missing_runs.eval, 0),
      trigger: all.reduce((n, s) => n + s.missing_runs.trigger, 0),
    },
    shards: all,
  };
}

/** The root's partial in a merge of several agents: every agent's planned and missing runs added up. */
export function sumPartials(
  agents: readonly { agent: string; planned: Counts; partial?: MergePartial }[],
): MergePartial | undefined {
  const present = agents.filter((a) => a.partial !== undefined);
  const first = present[0]?.partial;
  if (!first) return undefined;
  const add = (pick: (a: (typeof agents)[number]) => Counts) => ({
    eval: agents.reduce((n, a) => n + pick(a).eval, 0),
    trigger: agents.reduce((n, a) => n + pick(a).trigger, 0),
  });
  return {
    count: first.count,
    planned_runs: add((a) => a.planned),
    missing_runs: add((a) => a.partial?.missing_runs ?? { eval: 0, trigger: 0 }),
    shards: present.flatMap((a) => (a.partial?.shards ?? []).map((s) => ({ ...s, agent: a.agent }))),
  };
}
