/**
 * Runs `work` over `items` with at most `limit` at once; stops taking new items once `signal` aborts or `mayStart`
 * says no (a spending limit). `pick` chooses which of the items not yet taken starts next (default: the first).
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
  async function lane(): Promise<void> {
    while (remaining.length > 0 && !signal?.aborted && mayStart()) {
      const index = Math.min(Math.max(0, pick(remaining)), remaining.length - 1);
      const [item] = remaining.splice(index, 1);
      results.push(await work(item as T));
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}
