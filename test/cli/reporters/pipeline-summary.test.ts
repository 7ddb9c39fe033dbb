import { describe, expect, it } from "vitest";
import { pipelineSummaryLines } from "../../../src/cli/reporters/pipeline-summary.js";
import { noSimScriptNotice } from "../../../src/sim/index.js";
import {
  benchmark,
  evalRecord,
  evalSummary,
  pipelineResult,
  triggerResults,
  triggerSummary,
} from "./records.js";

const settledResults = triggerResults({
  runs_per_query: 3,
  all_runs: false,
  results: [
    { query: "q", should_trigger: true, trigger_rate: 1, triggers: 2, runs: 2, errors: 0, pass: true },
  ],
  screen: { kind: "replay", decided_by_replay: 1, decided_by_agent: 1 },
});
const limits = { events: 3, reductions: 1, lowest_concurrency: 2, final_concurrency: 3, max_concurrency: 4 };

describe("pipelineSummaryLines", () => {
  it("gives the cost and the report alone when nothing ran", () => {
    expect(pipelineSummaryLines(pipelineResult())).toEqual([
      "cost: $0.0000",
      "report: /ws/iteration-1/report.html",
    ]);
    // Nothing was asked for (no evals, no triggers): no report was written.
    const { reportFile: _none, ...unreported } = pipelineResult();
    expect(pipelineSummaryLines(unreported)).toEqual(["cost: $0.0000"]);
  });

  it("prints the pass rates, verdict, errors, cancelled runs, trigger scores, settled and replayed runs, rate limits, budget, cost and gates", () => {
    const lines = pipelineSummaryLines(
      pipelineResult({
        costUsd: 0.42,
        budgetExhausted: true,
        benchmark: benchmark({
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
        }),
        evals: evalSummary(
          [
            evalRecord(),
            evalRecord({ runNumber: 2, outcome: "timeout" }),
            evalRecord({ runNumber: 3, outcome: "cancelled" }),
            evalRecord({ runNumber: 4, outcome: "cancelled" }),
          ],
          { rateLimits: limits },
        ),
        triggers: triggerSummary(settledResults, [], { rateLimits: { ...limits, reductions: 2 } }),
        gates: [
          { name: "min-pass-rate", passed: true, message: "90% ≥ 80%" },
          { name: "min-trigger-accuracy", passed: false, message: "65% < 70%" },
        ],
      }),
    );
    expect(lines).toEqual([
      "evals: with_skill 90%, without_skill 30%, delta +0.60 (95% CI 0.40..0.80)",
      "verdict: the skill helps (beyond ±0.05)",
      "1 eval runs errored (left out of the pass rates)",
      "2 eval runs cancelled (run again to finish them)",
      "triggers: 3/4 queries passed, accuracy 65%, precision 80%, recall 40%",
      "settled verdicts saved 1 of 3 trigger runs",
      "replay decided 1 of 2 trigger runs, the agent 1",
      "rate limited (eval runs): 3 429 answers; concurrency lowered once, down to 2 of 4, ended at 3",
      "rate limited (trigger runs): 3 429 answers; concurrency lowered 2 times, down to 2 of 4, ended at 3",
      "stopped scheduling runs: --max-cost reached",
      "cost: $0.4200",
      "gate min-pass-rate: passed (90% ≥ 80%)",
      "gate min-trigger-accuracy: FAILED (65% < 70%)",
      "report: /ws/iteration-1/report.html",
    ]);
  });

  it("leaves out the settled runs of cancelled trigger runs, and the lines that have nothing to say", () => {
    const lines = pipelineSummaryLines(
      pipelineResult({
        triggers: triggerSummary(triggerResults({ ...settledResults, screen: undefined }), [], {
          cancelled: true,
        }),
      }),
    );
    expect(lines).toEqual([
      "triggers: 3/4 queries passed, accuracy 65%, precision 80%, recall 40%",
      "cost: $0.0000",
      "report: /ws/iteration-1/report.html",
    ]);
  });

  it("says a simulated run, warns when its evals had no sim script, and passes --fresh on", () => {
    const noScript = pipelineSummaryLines(
      pipelineResult({ simulated: true, simScript: null, evals: evalSummary([evalRecord()]) }),
      { fresh: true },
    );
    expect(noScript).toEqual([
      "SIMULATED: skillgym sim stood in for the model; these results test the suite, not the skill.",
      noSimScriptNotice,
      "cost: $0.0000 spent on 0 runs; the result store was not read (--fresh): every run was made again and stored",
      "report: /ws/iteration-1/report.html",
    ]);
    // A script, or no evals (triggers only), or a real agent: no warning.
    for (const result of [
      pipelineResult({ simulated: true, simScript: "/s/sim-script.json", evals: evalSummary([]) }),
      pipelineResult({ simulated: true, simScript: null }),
      pipelineResult({ simScript: null, evals: evalSummary([]) }),
    ])
      expect(pipelineSummaryLines(result)).not.toContain(noSimScriptNotice);
  });
});
