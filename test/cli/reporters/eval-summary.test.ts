import { describe, expect, it } from "vitest";
import { evalCounts, evalSummaryText } from "../../../src/cli/reporters/eval-summary.js";
import { noSimScriptNotice } from "../../../src/sim/index.js";
import { benchmark, evalRecord, evalSummary } from "./records.js";

const mixed = [
  evalRecord({ costUsd: 0.0123456, tokens: 1000 }),
  evalRecord({ runNumber: 2, outcome: "timeout", error: "timed out", costUsd: 0.01, tokens: 500 }),
  evalRecord({ runNumber: 3, outcome: "cancelled", costUsd: 0, tokens: 0 }),
  evalRecord({ runNumber: 4, skipped: true, costUsd: 0.02, tokens: 700 }),
  evalRecord({ runNumber: 5, outcome: "crash", costUsd: 0, tokens: 10, costUnknown: true }),
];

describe("evalCounts", () => {
  it("counts the runs by how they ended, their cost to six digits, the unpriced ones and the tokens", () => {
    expect(evalCounts(mixed)).toEqual({
      runs: 5,
      succeeded: 2,
      errors: 2,
      cancelled_runs: 1,
      skipped_as_finished: 1,
      cost_usd: 0.042346,
      unpriced_runs: 1,
      tokens: 2210,
    });
  });

  it("leaves unpriced_runs out when every run had a price, and counts nothing for no runs", () => {
    expect(evalCounts([])).toEqual({
      runs: 0,
      succeeded: 0,
      errors: 0,
      cancelled_runs: 0,
      skipped_as_finished: 0,
      cost_usd: 0,
      tokens: 0,
    });
  });
});

describe("evalSummaryText", () => {
  it("says the runs finished, the errors, the cost and the folder; the pass rates with a benchmark", () => {
    const records = [evalRecord(), evalRecord({ runNumber: 2, outcome: "timeout" })];
    expect(evalSummaryText(evalSummary(records), evalCounts(records), benchmark())).toBe(
      "done: 1/2 runs finished, 1 errors, $0.0400\n" +
        "  /ws/iteration-1\n" +
        "evals: with_skill 90%, without_skill 30%, delta n/a\n",
    );
  });

  it("says a cancelled eval, its cancelled and unpriced runs, the verdict and the rate limits", () => {
    const b = benchmark({
      statistics: {
        delta_pass_rate: {
          estimate: 0.6,
          ci_low: 0.4,
          ci_high: 0.8,
          confidence: 0.95,
          distinguishable: true,
        },
        verdict: { verdict: "helps", floor: 0.05 },
      },
    });
    const summary = evalSummary(mixed, {
      cancelled: true,
      rateLimits: {
        events: 1,
        reductions: 1,
        lowest_concurrency: 2,
        final_concurrency: 4,
        max_concurrency: 4,
      },
    });
    expect(evalSummaryText(summary, evalCounts(mixed), b)).toBe(
      "cancelled: 2/5 runs finished, 2 errors, 1 cancelled, $0.0423 + 1 run of unknown cost\n" +
        "  /ws/iteration-1\n" +
        "evals: with_skill 90%, without_skill 30%, delta +0.60 (95% CI 0.40..0.80)\n" +
        "verdict: the skill helps (beyond ±0.05)\n" +
        "rate limited (eval runs): 1 429 answers; concurrency lowered once, down to 2 of 4, ended at 4\n",
    );
  });

  it("says a simulated eval, and warns when the simulator had no script", () => {
    const records = [evalRecord({ costUsd: 0 })];
    expect(
      evalSummaryText(
        evalSummary(records, { simulated: true, simScript: null }),
        evalCounts(records),
        undefined,
      ),
    ).toBe(
      "done: 1/1 runs finished, 0 errors, $0.0000 (simulated: skillgym sim stood in for the model)\n" +
        "  /ws/iteration-1\n" +
        `${noSimScriptNotice}\n`,
    );
    expect(
      evalSummaryText(
        evalSummary(records, { simulated: true, simScript: "/suite/sim-script.json" }),
        evalCounts(records),
        undefined,
      ),
    ).toBe(
      "done: 1/1 runs finished, 0 errors, $0.0000 (simulated: skillgym sim stood in for the model)\n  /ws/iteration-1\n",
    );
    // A real run has no sim script either: no warning.
    expect(evalSummaryText(evalSummary(records, { simScript: null }), evalCounts(records), undefined)).toBe(
      "done: 1/1 runs finished, 0 errors, $0.0000\n  /ws/iteration-1\n",
    );
  });
});
