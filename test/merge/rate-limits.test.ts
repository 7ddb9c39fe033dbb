import { describe, expect, it } from "vitest";
import type { IterationRecord, TriggerPlan } from "../../src/contracts/run-record.js";
import type { RateLimits, ShardInfo } from "../../src/contracts/shard.js";
import { combinedRateLimits, shardRateLimits, slowestShardSeconds } from "../../src/merge/rate-limits.js";
import type { ShardData } from "../../src/merge/read-shard.js";

const limits = (events: number, lowest: number, final: number, max: number, reductions = 1): RateLimits => ({
  events,
  reductions,
  lowest_concurrency: lowest,
  final_concurrency: final,
  max_concurrency: max,
});

function shard(iteration?: Partial<IterationRecord>, triggerPlan?: Partial<TriggerPlan>): ShardData {
  return {
    source: "s",
    dir: "/s",
    ...(iteration ? { iteration: iteration as IterationRecord & { shard: ShardInfo } } : {}),
    ...(triggerPlan ? { triggerPlan: triggerPlan as TriggerPlan & { shard: ShardInfo } } : {}),
    evalRuns: [],
    triggerRuns: [],
    finished: { evalRuns: 0, triggerRuns: 0 },
  };
}

describe("combinedRateLimits", () => {
  it("is nothing when no shard met a 429", () => {
    expect(combinedRateLimits([])).toBeUndefined();
    expect(combinedRateLimits([undefined, undefined])).toBeUndefined();
  });

  it("adds the events and reductions and keeps the lowest concurrencies and the highest maximum", () => {
    expect(combinedRateLimits([limits(3, 2, 4, 8, 1), undefined, limits(5, 3, 2, 16, 2)])).toEqual({
      events: 8,
      reductions: 3,
      lowest_concurrency: 2,
      final_concurrency: 2,
      max_concurrency: 16,
    });
  });
});

describe("shardRateLimits", () => {
  it("combines the eval runs' and the trigger runs' 429s apart, each only when some shard had one", () => {
    expect(
      shardRateLimits([
        shard({ rate_limits: limits(1, 4, 4, 8) }, { rate_limits: limits(2, 1, 1, 4) }),
        shard({ rate_limits: limits(2, 2, 3, 8) }),
      ]),
    ).toEqual({ evals: limits(3, 2, 3, 8, 2), triggers: limits(2, 1, 1, 4) });
    expect(shardRateLimits([shard({}, {}), shard()])).toEqual({});
    expect(shardRateLimits([shard({}, { rate_limits: limits(1, 1, 1, 1) })])).toEqual({
      triggers: limits(1, 1, 1, 1),
    });
  });
});

describe("slowestShardSeconds", () => {
  it("is the longest start-to-finish of the shards, 0 for one not finished or with no iteration", () => {
    expect(
      slowestShardSeconds([
        shard({ started_at: "2026-01-01T00:00:00Z", finished_at: "2026-01-01T00:01:30Z" }),
        shard({ started_at: "2026-01-01T00:00:00Z", finished_at: "2026-01-01T00:02:05.500Z" }),
        shard({ started_at: "2026-01-01T00:00:00Z" }),
        shard(),
      ]),
    ).toBe(125.5);
    expect(slowestShardSeconds([shard({ finished_at: "2026-01-01T00:01:30Z" })])).toBe(0);
    expect(slowestShardSeconds([])).toBe(0);
  });

  it("never reports a negative time for a clock that went back", () => {
    expect(
      slowestShardSeconds([
        shard({ started_at: "2026-01-01T00:01:00Z", finished_at: "2026-01-01T00:00:00Z" }),
      ]),
    ).toBe(0);
  });
});
