import type { RateLimits } from "../contracts/shard.js";
import type { ShardData } from "./read-shard.js";

/** The shards' 429s as one process would tell them: counts added, the lowest concurrency any reached. */
export function combinedRateLimits(all: readonly (RateLimits | undefined)[]): RateLimits | undefined {
  const present = all.filter((r): r is RateLimits => r !== undefined);
  if (present.length === 0) return undefined;
  return {
    events: present.reduce((n, r) => n + r.events, 0),
    reductions: present.reduce((n, r) => n + r.reductions, 0),
    lowest_concurrency: Math.min(...present.map((r) => r.lowest_concurrency)),
    final_concurrency: Math.min(...present.map((r) => r.final_concurrency)),
    max_concurrency: Math.max(...present.map((r) => r.max_concurrency)),
  };
}

/** The eval and trigger runs' 429s over every shard. */
export function shardRateLimits(shards: readonly ShardData[]): { evals?: RateLimits; triggers?: RateLimits } {
  const evals = combinedRateLimits(shards.map((s) => s.iteration?.rate_limits));
  const triggers = combinedRateLimits(shards.map((s) => s.triggerPlan?.rate_limits));
  return { ...(evals ? { evals } : {}), ...(triggers ? { triggers } : {}) };
}

/** The slowest shard's wall time in seconds, from its iteration's start and finish: the shards ran side by side. */
export function slowestShardSeconds(shards: readonly ShardData[]): number {
  const seconds = shards.map((s) => {
    // Stryker disable next-line StringLiteral: equivalent, Date.parse of any text that is no date is NaN, as of ""
    const from = Date.parse(s.iteration?.started_at ?? "");
    // Stryker disable next-line StringLiteral: equivalent, Date.parse of any text that is no date is NaN, as of ""
    const to = Date.parse(s.iteration?.finished_at ?? "");
    return Number.isFinite(from) && Number.isFinite(to) ? (to - from) / 1000 : 0;
  });
  return Math.max(0, ...seconds);
}
