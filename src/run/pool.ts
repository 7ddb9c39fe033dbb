/**
 * Runs `work` over `items` with at most `limit` at once (a number, or read again before each start so it can change);
 * stops taking new items once `signal` aborts or `mayStart` says no (a spending limit). `pick` chooses which of the
 * items not yet taken starts next (default: the first); -1 waits for a running item to end first (when none runs,
 * the first is taken).
 */
export async function runPool<T, R>(
  items: readonly T[],
  limit: number | (() => number),
  work: (item: T) => Promise<R>,
  signal?: AbortSignal,
  mayStart: () => boolean = () => true,
  pick: (remaining: readonly T[]) => number = () => 0,
): Promise<R[]> {
  const allowed = typeof limit === "number" ? () => limit : limit;
  const lanes = typeof limit === "number" ? limit : allowed();
  const results: R[] = [];
  const remaining = [...items];
  let active = 0;
  let wake: (() => void)[] = [];
  const freed = () => {
    const waiting = wake;
    wake = [];
    for (const w of waiting) w();
  };
  const anEnd = () => new Promise<void>((resolve) => wake.push(resolve));
  async function lane(): Promise<void> {
    while (remaining.length > 0 && !signal?.aborted) {
      // A lowered limit parks the extra lanes until a running item ends.
      if (active >= Math.max(1, allowed())) {
        await anEnd();
        continue;
      }
      if (!mayStart()) break;
      const wanted = pick(remaining);
      if (wanted < 0 && active > 0) {
        await anEnd();
        continue;
      }
      const [item] = remaining.splice(Math.min(Math.max(0, wanted), remaining.length - 1), 1);
      active++;
      try {
        results.push(await work(item as T));
      } finally {
        active--;
        freed();
      }
    }
    // Stryker disable next-line CallExpression: equivalent, a lane parks only while an item runs, whose end wakes it
    freed();
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, items.length)) }, lane));
  return results;
}
