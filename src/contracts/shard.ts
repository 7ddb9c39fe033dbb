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

const RunCounts = z.looseObject({
  eval: z.number().int().nonnegative(),
  trigger: z.number().int().nonnegative(),
});

// One shard a `--partial` merge lacked in part or whole: absent, interrupted, or complete with runs gone.
export const ShardShortfall = z.looseObject({
  index: z.number().int().positive(),
  /** The shard folder as given; absent for a shard no folder held. */
  source: z.string().optional(),
  state: z.enum(["missing", "interrupted", "running", "incomplete"]),
  /** In the root of a merge of several agents: whose shard it is. */
  agent: z.string().optional(),
  /** This shard's share of the plan, and how many of those runs did not finish. */
  planned_runs: RunCounts,
  missing_runs: RunCounts,
});
export type ShardShortfall = z.infer<typeof ShardShortfall>;

// What `skillgym merge --partial` lacked: the runs of the whole plan that no shard finished, and whose they were.
export const MergePartial = z.looseObject({
  /** n of `--shard i/n`. */
  count: z.number().int().positive(),
  planned_runs: RunCounts,
  missing_runs: RunCounts,
  shards: z.array(ShardShortfall),
});
export type MergePartial = z.infer<typeof MergePartial>;

// How often the service answered 429 and what the adaptive concurrency did about it.
export const RateLimits = z.looseObject({
  events: z.number().int().nonnegative(),
  reductions: z.number().int().nonnegative(),
  lowest_concurrency: z.number().int().positive(),
  final_concurrency: z.number().int().positive(),
  max_concurrency: z.number().int().positive(),
});
export type RateLimits = z.infer<typeof RateLimits>;
