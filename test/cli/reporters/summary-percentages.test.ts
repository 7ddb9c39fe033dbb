import { describe, expect, it } from "vitest";
import { formatCatalogResults } from "../../../src/cli/reporters/catalog-progress.js";
import { pipelineSummaryLines } from "../../../src/cli/reporters/pipeline-summary.js";
import { passRatesLine, verdictLines } from "../../../src/cli/reporters/result-lines.js";
import { formatTriggerResults } from "../../../src/cli/reporters/trigger-results.js";
import type { Benchmark } from "../../../src/contracts/benchmark.js";
import type { CatalogResults } from "../../../src/contracts/catalog.js";
import type { TriggerResults } from "../../../src/contracts/trigger-results.js";
import type { PipelineResult } from "../../../src/pipeline/index.js";

// Every figure differs from the others, so a line that prints one in another's place says something else.
const summary = {
  total: 4,
  passed: 3,
  failed: 1,
  errors: 0,
  precision: 0.8,
  recall: 0.4,
  f1: 0.53,
  accuracy: 0.65,
};
const triggerResults: TriggerResults = { skill_name: "card", description: "d", results: [], summary };

const stat = (mean: number) => ({ mean, stddev: 0, min: mean, max: mean });
const benchmark: Benchmark = {
  metadata: {
    skill_name: "card",
    timestamp: "t",
    evals_run: [1],
    runs_per_configuration: 1,
    baseline_configuration: "without_skill",
  },
  runs: [],
  run_summary: {
    with_skill: { pass_rate: stat(0.9), time_seconds: stat(1), tokens: stat(1) },
    without_skill: { pass_rate: stat(0.3), time_seconds: stat(1), tokens: stat(1) },
  },
};

describe("summary lines put each percentage under its own name", () => {
  it("run: with_skill's and the baseline's pass rates, then trigger accuracy, precision and recall", () => {
    const result: PipelineResult = {
      iterationDir: "/ws/iteration-1",
      benchmark,
      triggers: {
        iterationDir: "/ws/iteration-1",
        resultsFile: "/ws/iteration-1/triggers/trigger-results.json",
        results: triggerResults,
        records: [],
        cancelled: false,
        simulated: false,
      },
      reportFile: "/ws/iteration-1/report.html",
      gates: [],
      costUsd: 0,
      savings: { reused: 0, ran: 0, savedUsd: 0 },
      budgetExhausted: false,
      cancelled: false,
      simulated: false,
      wallSeconds: 1,
    };
    const lines = pipelineSummaryLines(result);
    expect(lines).toContain("evals: with_skill 90%, without_skill 30%, delta n/a");
    expect(lines).toContain("triggers: 3/4 queries passed, accuracy 65%, precision 80%, recall 40%");
  });

  it("eval: the pass rates line", () => {
    expect(passRatesLine(benchmark)).toBe("evals: with_skill 90%, without_skill 30%, delta n/a");
  });

  it("triggers: precision, recall, F1 and accuracy", () => {
    expect(formatTriggerResults(triggerResults)).toBe(
      "3/4 queries passed, 1 failed, 0 errored; precision 80%, recall 40%, F1 53%, accuracy 65%\n",
    );
  });

  it("catalog: each skill's precision, recall and F1", () => {
    const results: CatalogResults = {
      dir: "/lib/catalog-1",
      agent: { name: "claude-code" },
      simulated: false,
      runs_per_query: 1,
      skills: [
        {
          name: "chart-maker",
          path: "/lib/chart-maker",
          queries: 3,
          runs: 3,
          true_positives: 1,
          false_positives: 0,
          false_negatives: 2,
          true_negatives: 0,
          precision: 1,
          recall: 1 / 3,
          f1: 0.5,
        },
      ],
      confusion: {},
      pairs: [],
      runs: [],
      errors: 0,
      notes: [],
    };
    expect(formatCatalogResults(results)).toBe("  chart-maker: precision 100%, recall 33%, F1 50%\n");
  });
});

describe("the summary's verdict lines", () => {
  const floor = { verdict: "no effect" as const, floor: 0.05 };
  const redundant = (redundancy: NonNullable<NonNullable<Benchmark["statistics"]>["redundant"]>) =>
    verdictLines({
      ...benchmark,
      statistics: {
        delta_pass_rate: { estimate: 0, ci_low: 0, ci_high: 0, distinguishable: false },
        verdict: floor,
        redundant: redundancy,
      },
    } as Benchmark);

  it("gives a redundant skill's cost a run in tokens and in time", () => {
    expect(redundant({ baseline_pass_rate: 0.9, tokens_delta: "+4000", time_seconds_delta: "+2.5" })).toEqual(
      [
        "verdict: the skill has no effect (within ±0.05)",
        "redundant on this model: the baseline already passes 90% and the skill has no effect (it costs +4000 tokens and +2.5 s a run)",
      ],
    );
    expect(redundant({ baseline_pass_rate: 0.9 })[1]).toBe(
      "redundant on this model: the baseline already passes 90% and the skill has no effect",
    );
  });

  it("has no line without a verdict", () => {
    expect(verdictLines(benchmark)).toEqual([]);
  });
});
