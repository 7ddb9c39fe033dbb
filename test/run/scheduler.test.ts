import { describe, expect, it } from "vitest";
import { createBudget } from "../../src/run/budget.js";
import { scheduleRuns } from "../../src/run/scheduler.js";

interface Done {
  spec: number;
  earlier: boolean;
  costUsd: number;
}

function recorder() {
  const events: string[] = [];
  return {
    events,
    reporter: {
      onRunStart: (spec: number) => events.push(`start ${spec}`),
      onRunEnd: (record: Done) => events.push(`end ${record.spec}${record.earlier ? " (earlier)" : ""}`),
    },
  };
}

describe("scheduleRuns", () => {
  it("ends a run finished earlier without starting or running it again", async () => {
    const { events, reporter } = recorder();
    const ran: number[] = [];
    const records = await scheduleRuns([1, 2, 3], {
      concurrency: 1,
      reporter,
      finishedEarlier: async (spec) => (spec === 2 ? { spec, earlier: true, costUsd: 0 } : undefined),
      run: async (spec) => {
        ran.push(spec);
        return { spec, earlier: false, costUsd: 0 };
      },
      costOf: (record) => record.costUsd,
    });
    expect(ran).toEqual([1, 3]);
    expect(records.map((r) => r.spec)).toEqual([1, 2, 3]);
    expect(events).toEqual(["start 1", "end 1", "end 2 (earlier)", "start 3", "end 3"]);
  });

  it("settles what each run cost and starts none that would cross the budget", async () => {
    const budget = createBudget(1, 0.3);
    const records = await scheduleRuns([1, 2, 3, 4, 5], {
      concurrency: 1,
      budget,
      finishedEarlier: async () => undefined,
      run: async (spec) => ({ spec, earlier: false, costUsd: 0.3 }),
      costOf: (record) => record.costUsd,
    });
    expect(records).toHaveLength(3);
    expect(budget.spentUsd).toBeCloseTo(0.9);
    expect(budget.inFlight).toBe(0);
    expect(budget.exhausted).toBe(true);
  });

  it("starts no further run once the signal aborts", async () => {
    const controller = new AbortController();
    const records = await scheduleRuns([1, 2, 3, 4], {
      concurrency: 2,
      signal: controller.signal,
      reporter: { onRunEnd: () => controller.abort() },
      finishedEarlier: async () => undefined,
      run: async (spec) => ({ spec, earlier: false, costUsd: 0 }),
      costOf: () => 0,
    });
    expect(records.length).toBeLessThanOrEqual(2);
    expect(records.length).toBeGreaterThan(0);
  });

  it("drops a queued run the skip rule refuses, without starting or ending it, and frees its budget place", async () => {
    const { events, reporter } = recorder();
    const budget = createBudget(10, 1);
    const records = await scheduleRuns([1, 2, 3, 4], {
      concurrency: 1,
      budget,
      reporter,
      skip: (spec) => spec % 2 === 0,
      finishedEarlier: async () => undefined,
      run: async (spec) => ({ spec, earlier: false, costUsd: 1 }),
      costOf: (record) => record.costUsd,
    });
    expect(records.map((r) => r.spec)).toEqual([1, 3]);
    expect(events).toEqual(["start 1", "end 1", "start 3", "end 3"]);
    expect(budget.inFlight).toBe(0);
    expect(budget.spentUsd).toBe(2);
  });
});
