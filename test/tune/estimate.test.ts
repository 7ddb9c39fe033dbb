import { describe, expect, it } from "vitest";
import { estimateTune } from "../../src/tune/estimate.js";

describe("the tune estimate --max-cost is checked against", () => {
  it("counts every iteration's eval runs and judge calls, one evaluator call per skill, and the improver between", () => {
    const unitCosts = { agentRunUsd: 0.5, triggerRunUsd: 0.25, judgeCallUsd: 0.125 };
    const estimate = estimateTune({
      suites: [
        { evals: 3, judgedEvals: 2 },
        { evals: 1, judgedEvals: 0 },
      ],
      runs: 2,
      iterations: 3,
      unitCosts,
    });
    // Per iteration: 8 eval runs; (2 × 2 + 1) + (0 + 1) = 6 judge calls. The improver runs after iterations 1 and 2.
    expect(estimate).toEqual({
      evalRuns: 24,
      improverRuns: 2,
      judgeCalls: 18,
      costUsd: (24 + 2) * 0.5 + 18 * 0.125,
      unitCosts,
    });
  });

  it("has no improver run for a single iteration", () => {
    const unitCosts = { agentRunUsd: 1, triggerRunUsd: 1, judgeCallUsd: 1 };
    expect(
      estimateTune({ suites: [{ evals: 1, judgedEvals: 1 }], runs: 1, iterations: 1, unitCosts }),
    ).toMatchObject({
      improverRuns: 0,
      costUsd: 3,
    });
  });
});
