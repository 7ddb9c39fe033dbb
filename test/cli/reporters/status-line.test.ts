import { describe, expect, it } from "vitest";
import {
  formatDuration,
  newTally,
  type Spending,
  spend,
  spentText,
  statusText,
  timeLeftMs,
} from "../../../src/cli/reporters/status-line.js";

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

describe("what a command has spent", () => {
  it("adds a priced run's cost, and counts a run of unknown cost apart", () => {
    const spending: Spending = { usd: 0 };
    spend(spending, 0.25);
    spend(spending, 0);
    expect(spending).toEqual({ usd: 0.25 });
    spend(spending, undefined);
    spend(spending, undefined);
    expect(spending).toEqual({ usd: 0.25, unpriced: 2 });
  });

  it("says the spend with its digits, and the runs of unknown cost, singular and plural", () => {
    expect(spentText(1.234, undefined)).toBe("$1.23");
    expect(spentText(1.234, 0, 4)).toBe("$1.2340");
    expect(spentText(1.234, 1)).toBe("$1.23 + 1 run of unknown cost");
    expect(spentText(0, 3, 4)).toBe("$0.0000 + 3 runs of unknown cost");
  });
});

describe("the live status line's parts", () => {
  it("starts a tally at zero", () => {
    expect(newTally("eval runs", 7, 123)).toEqual({
      label: "eval runs",
      total: 7,
      done: 0,
      ran: 0,
      running: 0,
      grading: 0,
      errors: 0,
      cancelled: 0,
      startedAt: 123,
    });
  });

  it("formats durations at each unit's edge, and nothing below zero", () => {
    expect(formatDuration(-5_000)).toBe("0s");
    expect(formatDuration(59_499)).toBe("59s");
    expect(formatDuration(59_500)).toBe("1m00s");
    expect(formatDuration(3_599_000)).toBe("59m59s");
    expect(formatDuration(3_600_000)).toBe("1h00m");
    expect(formatDuration(36_000_000)).toBe("10h00m");
  });

  it("estimates nothing once no run is left", () => {
    const tally = { ...newTally("eval runs", 4, 0), done: 4, ran: 4 };
    expect(timeLeftMs(tally, 60_000)).toBeUndefined();
    expect(timeLeftMs({ ...tally, done: 3 }, 60_000)).toBe(15_000);
  });

  it("counts no queued run below zero, and shows unpriced runs against --max-cost", () => {
    const tally = { ...newTally("trigger runs", 3, 0), done: 2, ran: 2, running: 2 };
    expect(statusText(tally, { usd: 1, maxUsd: 2, unpriced: 1 }, 2_000)).toBe(
      "trigger runs 2/3 done · 2 running · 0 queued · 2s elapsed · about 1s left · $1.00 + 1 run of unknown cost of $2.00 (--max-cost)",
    );
    expect(statusText(tally, { usd: 1, unpriced: 2 }, 2_000)).toBe(
      "trigger runs 2/3 done · 2 running · 0 queued · 2s elapsed · about 1s left · $1.00 + 2 runs of unknown cost spent",
    );
  });
});
