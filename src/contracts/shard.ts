import { z } from "zod";

// A shard's place in a plan split n ways (`--shard i/n`): which part it ran and which plan it belongs to.
export const ShardInfo = z.looseObject({
  /** 1-based. */
  index: z.number().int().positive(),
  count: z.number().int().positive(),
  /** The hash of everything that defines the whole plan (suite, runs, baseline, agent, model, --only); not the index. */
  plan_hash: z.string().min(1),
});
export type ShardInfo = z.infer<typeof ShardInfo>;

// What `skillgym merge` records in the iteration it writes: the plan it merged and the shards it had.
export const MergedFrom = z.looseObject({
  plan_hash: z.string().min(1),
  count: z.number().int().positive(),
  /** The shard indexes merged, ascending. */
  shards: z.array(z.number().int().positive()),
  /** Shards absent from a `--partial` merge. */
  missing: z.array(z.number().int().positive()),
});
export type MergedFrom = z.infer<typeof MergedFrom>;

// How often the service answered 429 and what the adaptive concurrency did about it.
export const RateLimits = z.looseObject({
  events: z.number().int().nonnegative(),
  reductions: z.number().int().nonnegative(),
  lowest_concurrency: z.number().int().positive(),
  final_concurrency: z.number().int().positive(),
  max_concurrency: z.number().int().positive(),
});
export type RateLimits = z.infer<typeof RateLimits>;
