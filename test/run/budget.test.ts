import { describe, expect, it } from "vitest";
import { createBudget, reserveRun, settleRun } from "../../src/run/budget.js";

describe("--max-cost", () => {
  it("starts a run that lands exactly on the limit, and none past it", () => {
    // Quarters are exact in binary: 4 × 0.25 is 1 with no rounding.
    const budget = createBudget(1, 0.25);
    expect([reserveRun(budget), reserveRun(budget), reserveRun(budget), reserveRun(budget)]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(budget.exhausted).toBe(false);
    expect(reserveRun(budget)).toBe(false);
    expect(budget.exhausted).toBe(true);
  });

  it("counts what was spent: a run that cost less than expected leaves room for exactly one more", () => {
    const budget = createBudget(1, 0.5);
    expect(reserveRun(budget)).toBe(true);
    settleRun(budget, 0.25);
    expect(budget).toMatchObject({ spentUsd: 0.25, inFlight: 0 });
    // 0.25 spent + 0.5 for this one = 0.75; then 0.25 + 2 × 0.5 = 1.25 is over.
    expect(reserveRun(budget)).toBe(true);
    expect(reserveRun(budget)).toBe(false);
    settleRun(budget, 0.25);
    expect(budget).toMatchObject({ spentUsd: 0.5, inFlight: 0 });
    expect(reserveRun(budget)).toBe(true);
  });

  it("keeps counting the runs still in flight when one of several settles", () => {
    const budget = createBudget(1, 0.25);
    expect([reserveRun(budget), reserveRun(budget), reserveRun(budget)]).toEqual([true, true, true]);
    settleRun(budget, 0.25);
    expect(budget).toMatchObject({ spentUsd: 0.25, inFlight: 2 });
    // 0.25 spent + 3 × 0.25 for the two in flight and this one = 1: the last that fits.
    expect(reserveRun(budget)).toBe(true);
    expect(reserveRun(budget)).toBe(false);
  });
});
