import type { ShardInfo } from "../contracts/shard.js";
import type { ShardData } from "./read-shard.js";

export interface ShardCheck {
  /** Each a sentence naming the shard folder and the field that differs; any one refuses the merge. */
  problems: string[];
  count: number;
  /** Shard indexes, 1..n, that no folder holds. */
  missing: number[];
}

function shardOf(s: ShardData): ShardInfo {
  // readShard refuses a folder without one, so one of the two is there.
  return (s.iteration?.shard ?? s.triggerPlan?.shard) as ShardInfo;
}

function differ(
  problems: string[],
  first: ShardData,
  other: ShardData,
  field: string,
  a: unknown,
  b: unknown,
): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  const show = (v: unknown) => (v === undefined ? "(none)" : JSON.stringify(v));
  problems.push(`${other.source}: ${field} is ${show(b)}, but ${first.source} has ${show(a)}`);
}

/** Whether the shards belong to one plan, each once, no run twice; pure, so the merge writes nothing when not. */
export function checkShards(shards: readonly ShardData[]): ShardCheck {
  const problems: string[] = [];
  const first = shards[0];
  if (!first) return { problems: ["no shard folders given"], count: 0, missing: [] };
  const count = shardOf(first).count;
  for (const other of shards.slice(1)) {
    differ(problems, first, other, "the shard count n", count, shardOf(other).count);
    differ(
      problems,
      first,
      other,
      "evals: iteration.json plan_hash",
      first.iteration?.shard.plan_hash,
      other.iteration?.shard.plan_hash,
    );
    differ(
      problems,
      first,
      other,
      "evals: iteration.json skill_hash",
      first.iteration?.skill_hash,
      other.iteration?.skill_hash,
    );
    differ(
      problems,
      first,
      other,
      "evals: iteration.json agent",
      first.iteration?.agent?.name,
      other.iteration?.agent?.name,
    );
    differ(
      problems,
      first,
      other,
      "triggers: plan.json plan_hash",
      first.triggerPlan?.shard.plan_hash,
      other.triggerPlan?.shard.plan_hash,
    );
    differ(
      problems,
      first,
      other,
      "triggers: plan.json skill_hash",
      first.triggerPlan?.skill_hash,
      other.triggerPlan?.skill_hash,
    );
  }
  const byIndex = new Map<number, ShardData>();
  for (const s of shards) {
    const { index } = shardOf(s);
    const earlier = byIndex.get(index);
    if (earlier)
      problems.push(`${s.source}: shard ${index}/${count} is given twice (also ${earlier.source})`);
    else byIndex.set(index, s);
  }
  const owner = new Map<string, string>();
  for (const s of shards) {
    for (const run of [...s.evalRuns, ...s.triggerRuns.map((r) => `triggers/${r}`)]) {
      const earlier = owner.get(run);
      if (earlier && earlier !== s.source) problems.push(`${s.source}: run ${run} is also in ${earlier}`);
      else owner.set(run, s.source);
    }
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  return { problems, count, missing };
}
