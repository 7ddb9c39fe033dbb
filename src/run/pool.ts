/**
 * Runs `work` over `items` with at most `limit` at once (a number, or read again before each start so it can change);
 * stops taking new items once `signal` aborts or `mayStart` says no (a spending limit).
 */
export async function runPool<T, R>(
  items: readonly T[],
  limit: number | (() => number),
  work: (item: T) => Promise<R>,
  signal?: AbortSignal,
  mayStart: () => boolean = () => true,
): Promise<R[]> {
  const allowed = typeof limit === "number" ? () => limit : limit;
  const lanes = typeof limit === "number" ? limit : allowed();
  const results: R[] = [];
  let next = 0;
  let active = 0;
  let wake: (() => void)[] = [];
  const freed = () => {
    const waiting = wake;
    wake = [];
    for (const w of waiting) w();
  };
  async function lane(): Promise<void> {
    while (next < items.length && !signal?.aborted) {
      // A lowered limit parks the extra lanes until a running item ends.
      if (active >= Math.max(1, allowed())) {
        await new Promise<void>((resolve) => wake.push(resolve));
        continue;
      }
      if (!mayStart()) break;
      const item = items[next++]!;
      active++;
      try {
        results.push(await work(item));
      } finally {
        active--;
        freed();
      }
    }
    freed();
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, items.length)) }, lane));
  return results;
}
