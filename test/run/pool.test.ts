import { describe, expect, it } from "vitest";
import { runPool } from "../../src/run/pool.js";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("runPool", () => {
  it("runs every item, never more than limit at once", async () => {
    let running = 0;
    let peak = 0;
    const items = Array.from({ length: 12 }, (_, i) => i);
    const results = await runPool(items, 3, async (item) => {
      running++;
      peak = Math.max(peak, running);
      await pause(5 + (item % 4) * 5);
      running--;
      return item * 10;
    });
    expect(peak).toBe(3);
    expect([...results].sort((a, b) => a - b)).toEqual(items.map((i) => i * 10));
  });

  it("runs one at a time with limit 1, in order", async () => {
    const order: number[] = [];
    const results = await runPool([1, 2, 3], 1, async (item) => {
      order.push(item);
      await pause(1);
      return item;
    });
    expect(order).toEqual([1, 2, 3]);
    expect(results).toEqual([1, 2, 3]);
  });

  it("treats a limit below one as one and returns [] for no items", async () => {
    let running = 0;
    let peak = 0;
    await runPool([1, 2, 3], 0, async () => {
      running++;
      peak = Math.max(peak, running);
      await pause(2);
      running--;
    });
    expect(peak).toBe(1);
    expect(await runPool([], 4, async () => 1)).toEqual([]);
  });

  it("stops taking items once the signal aborts, letting running ones finish", async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const items = Array.from({ length: 10 }, (_, i) => i);
    const results = await runPool(
      items,
      2,
      async (item) => {
        started.push(item);
        if (item === 2) controller.abort();
        await pause(10);
        return item;
      },
      controller.signal,
    );
    expect(started).toEqual([0, 1, 2]);
    expect([...results].sort((a, b) => a - b)).toEqual([0, 1, 2]);
  });

  it("takes nothing when the signal is already aborted", async () => {
    let calls = 0;
    const results = await runPool([1, 2, 3], 2, async () => ++calls, AbortSignal.abort());
    expect(calls).toBe(0);
    expect(results).toEqual([]);
  });

  it("starts the item pick chooses, and on -1 waits for a running item to end (or takes the first when none runs)", async () => {
    const log: string[] = [];
    // "b" is chosen first; while anything runs, the pick says wait; once nothing runs, -1 takes the first left.
    await runPool(
      ["a", "b", "c"],
      3,
      async (item) => {
        log.push(`start ${item}`);
        await pause(5);
        log.push(`end ${item}`);
      },
      undefined,
      () => true,
      (remaining) => (remaining.includes("b") ? remaining.indexOf("b") : -1),
    );
    expect(log).toEqual(["start b", "end b", "start a", "end a", "start c", "end c"]);
  });

  it("takes the last item when pick names a place past the end", async () => {
    const order: number[] = [];
    await runPool(
      [1, 2, 3],
      1,
      async (item) => order.push(item),
      undefined,
      undefined,
      () => 99,
    );
    expect(order).toEqual([3, 2, 1]);
  });

  it("wakes a lane parked by a lowered limit as soon as a running item ends", async () => {
    let limit = 2;
    let running = 0;
    const peaks: number[] = [];
    await runPool(
      [1, 2, 3, 4],
      () => limit,
      async (item) => {
        running++;
        peaks.push(running);
        // The first item lowers the limit while it runs, parking the other lane, and raises it again as it ends.
        if (item === 1) limit = 1;
        await pause(10);
        if (item === 1) limit = 2;
        running--;
      },
    );
    // Item 1 ran alone; once it ended, both lanes took items again.
    expect(peaks.slice(0, 2)).toEqual([1, 1]);
    expect(Math.max(...peaks.slice(2))).toBe(2);
  });

  it("never runs more at once than the limit it started with, though the limit is raised later", async () => {
    let limit = 1;
    let running = 0;
    let peak = 0;
    await runPool(
      [1, 2, 3, 4],
      () => limit,
      async () => {
        running++;
        peak = Math.max(peak, running);
        limit = 4;
        await pause(5);
        running--;
      },
    );
    expect(peak).toBe(1);
  });
});
