/**
 * Runs `work` over `items` with at most `limit` at once; stops taking new items once `signal` aborts or `mayStart`
 * says no (a spending limit). `pick` chooses which of the items not yet taken starts next (default: the first); -1
 * waits for a running item to end first (when none runs, the first is taken).
 */
export async function runPool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
  signal?: AbortSignal,
  mayStart: () => boolean = () => true,
  pick: (remaining: readonly T[]) => number = () => 0,
): Promise<R[]> {
  const results: R[] = [];
  const remaining = [...items];
  let running = 0;
  let ended: () => void = () => {};
  let anEnd = new Promise<void>((r) => {
    ended = r;
  });
  async function lane(): Promise<void> {
    while (remaining.length > 0 && !signal?.aborted && mayStart()) {
      const wanted = pick(remaining);
      if (wanted < 0 && running > 0) {
        await anEnd;
        continue;
      }
      const [item] = remaining.splice(Math.min(Math.max(0, wanted), remaining.length - 1), 1);
      running++;
      try {
        results.push(await work(item as T));
      } finally {
        running--;
        ended();
        anEnd = new Promise<void>((r) => {
          ended = r;
        });
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}
