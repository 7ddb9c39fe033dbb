import type { ShardInfo } from "../contracts/shard.js";
import { planDifferences } from "./plan-fields.js";
import type { ShardData } from "./read-shard.js";

export interface ShardCheck {
  /** Each names the shard folders and what differs, in words; any one refuses the merge. */
  problems: string[];
  count: number;
  /** Shard indexes, 1..n, that no folder holds. */
  missing: number[];
}

export function shardOf(s: ShardData): ShardInfo {
  // readShard refuses a folder without one, so one of the two is there.
  return (s.iteration?.shard ?? s.triggerPlan?.shard) as ShardInfo;
}

/**
 * The shards by index, the order given among equals (Array.prototype.sort is stable): every message then names them
 * in one order.
 */
export function byShardIndex<T>(shards: readonly T[], indexOf: (s: T) => number): T[] {
  return [...shards].sort((a, b) => indexOf(a) - indexOf(b));
}

/** Whether the shards belong to one plan, each once, no run twice; pure, so the merge writes nothing when not. */
export function checkShards(given: readonly ShardData[]): ShardCheck {
  const shards = byShardIndex(given, (s) => shardOf(s).index);
  const first = shards[0];
  if (!first) return { problems: ["no shard folders given"], count: 0, missing: [] };
  const problems: string[] = [];
  const count = shardOf(first).count;
  // Stryker disable next-line MethodExpression: equivalent, the first shard compared with itself differs in nothing.
  for (const other of shards.slice(1)) {
    const differences = planDifferences(first, other);
    if (differences.length > 0)
      problems.push(`${first.source} vs ${other.source}:\n    ${differences.join("\n    ")}`);
  }
  const samePlan = problems.length === 0;
  const byIndex = new Map<number, ShardData>();
  for (const s of shards) {
    const { index } = shardOf(s);
    const earlier = byIndex.get(index);
    if (earlier)
      problems.push(`${s.source}: shard ${index}/${count} is given twice (also ${earlier.source})`);
    else byIndex.set(index, s);
  }
  // Shards of different plans overlap by chance; that says nothing more.
  if (samePlan) {
    const owner = new Map<string, string>();
    for (const s of shards) {
      for (const run of [...s.evalRuns, ...s.triggerRuns.map((r) => `triggers/${r}`)]) {
        const earlier = owner.get(run);
        if (earlier && earlier !== s.source) problems.push(`${s.source}: run ${run} is also in ${earlier}`);
        else owner.set(run, s.source);
      }
    }
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  return { problems, count, missing };
}
