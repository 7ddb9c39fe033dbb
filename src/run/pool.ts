/**
 * Runs `work` over `items` with at most `limit` at once; stops taking new items once `signal` aborts or `mayStart`
 * says no (a spending limit).
 */
export async function runPool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
  signal?: AbortSignal,
  mayStart: () => boolean = () => true,
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  async function lane(): Promise<void> {
    while (next < items.length && !signal?.aborted && mayStart()) {
      const item = items[next++]!;
      results.push(await work(item));
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}
