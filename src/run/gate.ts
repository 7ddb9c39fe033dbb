/**
 * Lets at most `size()` pieces of work through at once; the size is read again before each start, so it can change
 * (a concurrency lowered under rate limits). Work waiting when a slot frees starts in the order it came.
 */
export function openGate(size: () => number) {
  let active = 0;
  let waiting: (() => void)[] = [];
  const freed = () => {
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  };
  return async function through<T>(work: () => Promise<T>): Promise<T> {
    while (active >= Math.max(1, size())) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await work();
    } finally {
      active--;
      freed();
    }
  };
}
