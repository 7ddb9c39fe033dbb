import { describe, expect, it } from "vitest";
import { scoreQuery, type TriggerRunResult } from "../../src/triggers/score.js";
import { createSettleTracker, isSettled } from "../../src/triggers/settle.js";

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
  });
});
