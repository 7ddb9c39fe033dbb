import { join } from "node:path";
import { TriggerRun } from "../contracts/run-record.js";
import type { TriggerResults } from "../contracts/trigger-results.js";
import { TRIGGERS_DIR } from "../runlog/layout.js";
import { readRecordIfValid } from "../runlog/read-record.js";
import { scoreQuery, summarize, type TriggerRunResult } from "../triggers/score.js";
import type { ShardData } from "./read-shard.js";

// `run` is one of the shard's trigger run folders, always query-<i>/run-<k>.
const queryIndexOf = (run: string) => Number(/query-(\d+)\//.exec(run)?.[1] ?? 0) - 1;

/**
 * A shard's trigger results. One interrupted before it wrote trigger-results.json has its finished runs scored
 * here, as the shard would have, with the queries and threshold of a shard that wrote them (`like`).
 */
export async function shardTriggerResults(
  s: ShardData,
  like: TriggerResults | undefined,
): Promise<TriggerResults | undefined> {
  if (s.triggerResults) return s.triggerResults;
  if (!like || !s.triggerPlan) return undefined;
  const runs: TriggerRunResult[] = [];
  for (const run of s.triggerRuns) {
    const record = await readRecordIfValid(join(s.dir, TRIGGERS_DIR, run, "trigger.json"), TriggerRun);
    if (!record || record.outcome === "cancelled") continue;
    runs.push({
      queryIndex: queryIndexOf(run),
      triggered: record.triggered,
      stolenBy: record.stolen_by,
      error: record.error,
    });
  }
  const threshold = like.threshold ?? 0.5;
  const results = like.results.map((q, i) =>
    scoreQuery(
      { query: q.query, should_trigger: q.should_trigger },
      runs.filter((r) => r.queryIndex === i),
      threshold,
    ),
  );
  return { ...like, results, summary: summarize(results) };
}
