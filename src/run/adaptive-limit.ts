import type { RunOutcome } from "../agents/agent.js";
import type { RateLimits } from "../contracts/shard.js";

/** What the adaptation did, for iteration.json and the summary. */
export interface RateLimitStats {
  /** Attempts the service refused with a rate limit (429). */
  events: number;
  /** Times the concurrency was lowered. */
  reductions: number;
  /** The lowest concurrency it fell to. */
  lowest: number;
  /** The concurrency asked for, and where it stood at the end. */
  max: number;
  final: number;
}

/** This process's concurrency: lowered when 429s start, raised back one step at a time as runs succeed. */
export interface ConcurrencyLimit {
  current(): number;
  /** Told of every attempt's outcome (the retry loop's). */
  observe(outcome: RunOutcome): void;
  stats(): RateLimitStats;
}

/**
 * Halves the limit on a 429 (not below 1); after as many successful attempts in a row as the limit stands at
 * (one clean wave), raises it by one, up to `max`.
 */
export function adaptiveLimit(max: number): ConcurrencyLimit {
  let limit = max;
  let lowest = max;
  let events = 0;
  let reductions = 0;
  let cleanInARow = 0;
  return {
    current: () => limit,
    observe(outcome) {
      if (outcome === "rate_limited") {
        events++;
        cleanInARow = 0;
        const lowered = Math.max(1, Math.floor(limit / 2));
        if (lowered < limit) reductions++;
        limit = lowered;
        lowest = Math.min(lowest, limit);
        return;
      }
      if (outcome !== "success") return;
      cleanInARow++;
      if (limit < max && cleanInARow >= limit) {
        limit++;
        cleanInARow = 0;
      }
    },
    stats: () => ({ events, reductions, lowest, max, final: limit }),
  };
}

/** The record iteration.json keeps: absent when no 429 came. */
export function rateLimitRecord(limit: ConcurrencyLimit): { rate_limits?: RateLimits } {
  const s = limit.stats();
  if (s.events === 0) return {};
  return {
    rate_limits: {
      events: s.events,
      reductions: s.reductions,
      lowest_concurrency: s.lowest,
      final_concurrency: s.final,
      max_concurrency: s.max,
    },
  };
}
