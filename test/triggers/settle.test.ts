import { describe, expect, it } from "vitest";
import { runPool } from "../../src/run/pool.js";
import { scoreQuery, type TriggerRunResult } from "../../src/triggers/score.js";
import { createSettleTracker, isSettled, nextTriggerRun } from "../../src/triggers/settle.js";

type Outcome = "T" | "N" | "E";

const run = (o: Outcome): TriggerRunResult => ({
  queryIndex: 0,
  triggered: o === "T",
  stolenBy: [],
  ...(o === "E" ? { error: "timeout" } : {}),
});

function patterns(alphabet: readonly Outcome[], length: number): Outcome[][] {
  if (length === 0) return [[]];
  return patterns(alphabet, length - 1).flatMap((p) => alphabet.map((o) => [...p, o]));
}

// Runs the outcomes one at a time, as the scheduler would, stopping once the tracker says the query is settled.
function settledRuns(outcomes: readonly Outcome[], shouldTrigger: boolean, threshold: number) {
  const tracker = createSettleTracker([{ shouldTrigger, threshold, maxRuns: outcomes.length }]);
  const done: TriggerRunResult[] = [];
  for (const o of outcomes) {
    if (tracker.settled(0)) break;
    const r = run(o);
    tracker.record(r);
    done.push(r);
  }
  return done;
}

describe("settled trigger verdicts", () => {
  for (const shouldTrigger of [true, false]) {
    for (const pattern of patterns(["T", "N"], 3)) {
      it(`${pattern.join("")} should_trigger=${shouldTrigger}: the settled verdict is the --all-runs verdict`, () => {
        const query = { query: "q", should_trigger: shouldTrigger };
        const all = scoreQuery(query, pattern.map(run), 0.5);
        const done = settledRuns(pattern, shouldTrigger, 0.5);
        const settled = scoreQuery(query, done, 0.5);
        expect(settled.pass).toBe(all.pass);
        expect(settled.runs).toBe(done.length);
        // Two equal first outcomes settle it; two different ones need the third.
        expect(done.length).toBe(pattern[0] === pattern[1] ? 2 : 3);
      });
    }
  }

  it("gives the --all-runs verdict for every pattern with errors too, any run count and threshold", () => {
    let stoppedEarly = 0;
    for (const maxRuns of [1, 2, 3, 4, 5]) {
      for (const threshold of [0.2, 0.5, 0.6, 1]) {
        for (const shouldTrigger of [true, false]) {
          for (const pattern of patterns(["T", "N", "E"], maxRuns)) {
            const query = { query: "q", should_trigger: shouldTrigger };
            const all = scoreQuery(query, pattern.map(run), threshold);
            const done = settledRuns(pattern, shouldTrigger, threshold);
            expect(scoreQuery(query, done, threshold).pass, `${pattern.join("")} t=${threshold}`).toBe(
              all.pass,
            );
            if (done.length < maxRuns) stoppedEarly++;
          }
        }
      }
    }
    expect(stoppedEarly).toBeGreaterThan(1000);
  });

  it("never settles a query without a scored run, and always one with no run left", () => {
    const rule = { shouldTrigger: true, threshold: 0.5, maxRuns: 3 };
    expect(isSettled({ done: 2, scored: 0, triggers: 0 }, rule)).toBe(false);
    expect(isSettled({ done: 3, scored: 0, triggers: 0 }, rule)).toBe(true);
    expect(isSettled({ done: 1, scored: 1, triggers: 1 }, rule)).toBe(false);
    expect(isSettled({ done: 2, scored: 2, triggers: 1 }, rule)).toBe(false);
    // At threshold 0 every rate passes, yet a query with no scored run could still end with no verdict.
    expect(isSettled({ done: 1, scored: 0, triggers: 0 }, { ...rule, threshold: 0 })).toBe(false);
    expect(isSettled({ done: 1, scored: 1, triggers: 0 }, { ...rule, threshold: 0 })).toBe(true);
  });
});

describe("nextTriggerRun", () => {
  const spec = (queryIndex: number, runNumber: number) => ({ queryIndex, runNumber });
  it("starts a query's next run as soon as its earlier runs are back, before other queries' first runs", () => {
    const pending = [spec(2, 1), spec(3, 1), spec(0, 2), spec(1, 2), spec(0, 3)];
    const done = new Map([
      [0, 1],
      [1, 0],
    ]);
    expect(nextTriggerRun(pending, { done: (q) => done.get(q) ?? 0 })).toBe(2);
    done.set(0, 0);
    // Nothing is ready: a first run goes next.
    expect(nextTriggerRun(pending, { done: (q) => done.get(q) ?? 0 })).toBe(0);
    // Only later runs whose earlier runs are out: a second run, else wait for a run to end.
    expect(nextTriggerRun([spec(0, 3), spec(1, 2)], { done: () => 0 })).toBe(1);
    expect(nextTriggerRun([spec(0, 3)], { done: () => 1 })).toBe(-1);
    // The first pending run may be the ready one.
    expect(nextTriggerRun([spec(0, 2), spec(1, 1)], { done: (q) => (q === 0 ? 1 : 0) })).toBe(0);
  });

  it("puts a deciding third run ahead of fresh first runs in a real pool", async () => {
    const tracker = createSettleTracker(
      [0, 1, 2].map(() => ({ shouldTrigger: true, threshold: 0.5, maxRuns: 3 })),
    );
    // Query 0 disagrees (T, N) and needs its third run; queries 1 and 2 have not started.
    const outcomes: Record<string, boolean> = { "0-1": true, "0-2": false, "0-3": true };
    const order: string[] = [];
    const specs = [1, 2, 3].flatMap((runNumber) =>
      [0, 1, 2].map((queryIndex) => ({ queryIndex, runNumber })),
    );
    await runPool(
      specs,
      1,
      async (s) => {
        order.push(`${s.queryIndex}-${s.runNumber}`);
        tracker.record({
          queryIndex: s.queryIndex,
          triggered: outcomes[`${s.queryIndex}-${s.runNumber}`] ?? true,
          stolenBy: [],
        });
      },
      undefined,
      () => true,
      (pending) => nextTriggerRun(pending, tracker),
    );
    expect(order.slice(0, 4)).toEqual(["0-1", "0-2", "0-3", "1-1"]);
  });
});
