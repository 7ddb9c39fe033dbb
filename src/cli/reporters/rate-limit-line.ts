import type { RateLimits } from "../../contracts/shard.js";

/** What the summary says when 429s lowered the concurrency: how often, how low, and where it ended. */
export function rateLimitLine(what: string, r: RateLimits | undefined): string | undefined {
  if (!r) return undefined;
  const times = (n: number) => (n === 1 ? "once" : `${n} times`);
  return (
    `rate limited (${what}): ${r.events} 429 answers; concurrency lowered ${times(r.reductions)}, ` +
    `down to ${r.lowest_concurrency} of ${r.max_concurrency}, ended at ${r.final_concurrency}`
  );
}
