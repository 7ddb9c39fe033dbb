import { describe, expect, it } from "vitest";
import { priceStorePlan } from "../../src/pipeline/store-plan.js";

const forecast = (served: number, toRun: number, judgeServed: number, judgeToRun: number) => ({
  runs: served + toRun,
  served,
  toRun,
  judgeServed,
  judgeToRun,
  workspace: "/ws",
});

describe("pricing what the result store serves", () => {
  const units = { agentRunUsd: 0.5, triggerRunUsd: 0.25, judgeCallUsd: 2 };

  it("prices the runs left to make as cost and the served ones as saved, each kind at its unit price", () => {
    const evalRuns = forecast(2, 4, 1, 3);
    const triggerRuns = forecast(5, 10, 0, 0);
    const catalogRuns = forecast(3, 7, 0, 0);
    expect(priceStorePlan({ evalRuns, triggerRuns, catalogRuns }, units)).toEqual({
      evalRuns,
      triggerRuns,
      catalogRuns,
      // 4 × 0.5 + 3 × 2 + 10 × 0.25 + 7 × 0.25
      costUsd: 12.25,
      // 2 × 0.5 + 1 × 2 + 5 × 0.25 + 3 × 0.25
      savedUsd: 5,
    });
  });

  it("prices each kind of run alone", () => {
    expect(priceStorePlan({ evalRuns: forecast(1, 2, 0, 1) }, units)).toMatchObject({
      costUsd: 3,
      savedUsd: 0.5,
    });
    expect(priceStorePlan({ triggerRuns: forecast(4, 8, 0, 0) }, units)).toMatchObject({
      costUsd: 2,
      savedUsd: 1,
    });
    expect(priceStorePlan({ catalogRuns: forecast(4, 12, 0, 0) }, units)).toMatchObject({
      costUsd: 3,
      savedUsd: 1,
    });
  });

  it("costs and saves nothing without a forecast", () => {
    expect(priceStorePlan({}, units)).toEqual({ costUsd: 0, savedUsd: 0 });
  });
});
