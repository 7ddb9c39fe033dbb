import type { TriggerQueryResult, TriggerResults } from "../contracts/trigger-results.js";
import { passes, summarize } from "../triggers/score.js";

function addCounts(a: Record<string, number> | undefined, b: Record<string, number> | undefined) {
  const sum: Record<string, number> = { ...(a ?? {}) };
  for (const [skill, n] of Object.entries(b ?? {})) sum[skill] = (sum[skill] ?? 0) + n;
  return Object.keys(sum).length > 0 ? sum : undefined;
}

/** One query's result over the runs of every shard: counts add up, the rate and verdict are scored again. */
function mergeQuery(parts: readonly TriggerQueryResult[], threshold: number): TriggerQueryResult {
  const first = parts[0] as TriggerQueryResult;
  const runs = parts.reduce((n, p) => n + p.runs, 0);
  const errors = parts.reduce((n, p) => n + p.errors, 0);
  const triggers = parts.reduce((n, p) => n + p.triggers, 0);
  const scored = runs - errors;
  const rate = scored === 0 ? null : triggers / scored;
  const stolen = parts.reduce<Record<string, number> | undefined>(
    (s, p) => addCounts(s, p.stolen_by),
    undefined,
  );
  return {
    query: first.query,
    should_trigger: first.should_trigger,
    trigger_rate: rate,
    triggers,
    runs,
    errors,
    pass: rate === null ? null : passes(rate, first.should_trigger, threshold),
    ...(stolen ? { stolen_by: stolen } : {}),
  };
}

/** The trigger results of the whole plan from each shard's (every shard lists every query, with its own runs). */
export function mergeTriggerResults(shards: readonly TriggerResults[]): TriggerResults {
  const first = shards[0];
  if (!first) throw new Error("no trigger results to merge");
  const threshold = first.threshold ?? 0.5;
  const results = first.results.map((_, i) =>
    mergeQuery(
      shards.flatMap((s) => (s.results[i] ? [s.results[i]] : [])),
      threshold,
    ),
  );
  return { ...first, results, summary: summarize(results) };
}
