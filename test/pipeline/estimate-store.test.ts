import { describe, expect, it } from "vitest";
import { servedRunSeconds, wallSecondsWithStore } from "../../src/pipeline/estimate.js";

const forecast = (served: number, toRun: number, judgeServed: number, judgeToRun: number) => ({
  runs: served + toRun,
  served,
  toRun,
  judgeServed,
  judgeToRun,
  workspace: "/ws",
});

describe("the --dry-run wall time with the result store's forecast", () => {
  const unit = { agentRun: 100, judgeCall: 10, triggerRun: 30 };
  const counts = { agentRuns: 10, judgeCalls: 4, triggerRuns: 6 };

  it("runs only what the store does not serve, and copies the served runs in waves of their own", () => {
    expect(servedRunSeconds).toBe(0.5);
    // 3 eval runs in 2 waves of 100 s, 2 judge calls in 1 wave of 10 s, 2 trigger runs in 1 wave of 30 s;
    // 11 served runs copied in 6 waves of 0.5 s.
    expect(
      wallSecondsWithStore(
        counts,
        { evalRuns: forecast(7, 3, 2, 2), triggerRuns: forecast(4, 2, 0, 0) },
        2,
        unit,
      ),
    ).toBe(243);
  });

  it("runs every trigger run when only the eval runs were forecast, and every eval run when only the trigger runs were", () => {
    // 3 eval runs: 200 s; 2 judge calls: 10 s; all 6 trigger runs in 3 waves: 90 s; 7 copies in 4 waves: 2 s.
    expect(wallSecondsWithStore(counts, { evalRuns: forecast(7, 3, 2, 2) }, 2, unit)).toBe(302);
    // All 10 eval runs in 5 waves: 500 s; all 4 judge calls in 2 waves: 20 s; 2 trigger runs: 30 s; 4 copies: 1 s.
    expect(wallSecondsWithStore(counts, { triggerRuns: forecast(4, 2, 0, 0) }, 2, unit)).toBe(551);
  });

  it("copies one run at a time when the concurrency is below one", () => {
    expect(wallSecondsWithStore(counts, { evalRuns: forecast(3, 0, 0, 0) }, 0, unit)).toBe(
      // 6 trigger runs one at a time: 180 s; 3 copies one at a time: 1.5 s.
      181.5,
    );
  });

  it("runs everything at the measured pace without a forecast", () => {
    expect(wallSecondsWithStore(counts, undefined, 2, unit)).toBe(5 * 100 + 2 * 10 + 3 * 30);
    expect(wallSecondsWithStore(counts, {}, 2, unit)).toBe(610);
  });
});
