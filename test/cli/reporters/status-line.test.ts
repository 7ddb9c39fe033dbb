import { describe, expect, it } from "vitest";
import { formatDuration, newTally, statusText, timeLeftMs } from "../../../src/cli/reporters/status-line.js";

describe("the live status line", () => {
  it("counts runs done, running, grading and queued, with elapsed time, time left and cost against the limit", () => {
    const tally = { ...newTally("eval runs", 10, 0), done: 4, ran: 4, running: 2, grading: 1 };
    expect(statusText(tally, { usd: 1.5, maxUsd: 5 }, 60_000)).toBe(
      "eval runs 4/10 done · 2 running · 1 grading · 3 queued · 1m00s elapsed · about 1m30s left · $1.50 of $5.00 (--max-cost)",
    );
  });

  it("estimates nothing before a run has finished, and says so", () => {
    const tally = { ...newTally("trigger runs", 6, 0), running: 2 };
    expect(timeLeftMs(tally, 5_000)).toBeUndefined();
    expect(statusText(tally, { usd: 0 }, 5_000)).toBe(
      "trigger runs 0/6 done · 2 running · 4 queued · 5s elapsed · time left: estimating · $0.00 spent",
    );
  });

  it("paces the estimate by runs that really ran, not by runs finished in an earlier attempt", () => {
    // 4 of 10 were finished earlier; 2 ran in 60 s: 4 left take about 120 s.
    const tally = { ...newTally("eval runs", 10, 0), done: 6, ran: 2 };
    expect(timeLeftMs(tally, 60_000)).toBe(120_000);
  });

  it("shows errors and cancelled runs apart", () => {
    const tally = { ...newTally("eval runs", 4, 0), done: 3, ran: 3, errors: 1, cancelled: 2 };
    expect(statusText(tally, { usd: 0 }, 1000)).toContain("1 errors · 2 cancelled");
  });

  it("formats durations as seconds, minutes and hours", () => {
    expect(formatDuration(4_400)).toBe("4s");
    expect(formatDuration(125_000)).toBe("2m05s");
    expect(formatDuration(3_900_000)).toBe("1h05m");
  });
});
