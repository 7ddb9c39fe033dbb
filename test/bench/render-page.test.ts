import { describe, expect, it } from "vitest";
import { renderBenchmarkMarkdown } from "../../src/bench/render-markdown.js";
import { Benchmark } from "../../src/contracts/benchmark.js";

const result = (pass_rate: number, passed: number, total: number) => ({
  pass_rate,
  passed,
  failed: total - passed,
  total,
});

// Three evals: one measured in both configurations, one whose only run errored, one that never ran.
const full = Benchmark.parse({
  metadata: {
    skill_name: "pdf",
    executor_model: "claude-sonnet-4-5",
    analyzer_model: "claude-opus-4-1",
    timestamp: "2026-01-15T10:30:00Z",
    evals_run: [1, 2, 3],
    runs_per_configuration: 2,
    baseline_configuration: "without_skill",
    simulated: true,
  },
  runs: [
    { eval_id: 1, eval_name: "Ocean", configuration: "with_skill", run_number: 1, result: result(1, 2, 2) },
    { eval_id: 1, eval_name: "Ocean", configuration: "with_skill", run_number: 2, result: result(0.5, 1, 2) },
    {
      eval_id: 1,
      eval_name: "Ocean",
      configuration: "without_skill",
      run_number: 1,
      result: result(0, 0, 2),
    },
    {
      eval_id: 1,
      eval_name: "Ocean",
      configuration: "without_skill",
      run_number: 2,
      result: result(0, 0, 0),
      error: "timeout",
    },
    {
      eval_id: 2,
      eval_name: "eval-2",
      configuration: "with_skill",
      run_number: 1,
      result: result(0, 0, 0),
      error: "not run",
    },
  ],
  run_summary: {
    with_skill: {
      pass_rate: { mean: 0.75, stddev: 0.3536, min: 0.5, max: 1, n: 2 },
      time_seconds: { mean: 12.25, stddev: 1.5, n: 2 },
      tokens: { mean: 0, stddev: 0, n: 0 },
    },
    without_skill: {
      pass_rate: { mean: 0, stddev: 0, min: 0, max: 0, n: 1 },
      time_seconds: { mean: 10, stddev: 0, min: 10, max: 10, n: 1 },
      tokens: { mean: 1000, stddev: 0, min: 1000, max: 1000, n: 1 },
    },
    delta: { pass_rate: "+0.75", time_seconds: "+2.3", tokens: "-1000" },
  },
  notes: ["first\nsecond", "third"],
  statistics: {
    method: "paired bootstrap",
    delta_pass_rate: {
      estimate: 0.75,
      ci_low: 0.5,
      ci_high: 1,
      confidence: 0.95,
      distinguishable: true,
      pairs: 1,
    },
    per_eval: [
      {
        eval_id: 1,
        eval_name: "Ocean",
        with_skill_pass_rate: 0.75,
        baseline_pass_rate: 0,
        delta_pass_rate: { estimate: 0.75, ci_low: 0.5, ci_high: 1, confidence: 0.95, distinguishable: true },
        verdict: { verdict: "helps", floor: 0.05 },
      },
      {
        eval_id: 2,
        eval_name: "eval-2",
        with_skill_pass_rate: null,
        baseline_pass_rate: null,
        delta_pass_rate: null,
      },
    ],
    verdict: { verdict: "no effect", floor: 0.05 },
    redundant: { baseline_pass_rate: 0.9, tokens_delta: "-1000" },
  },
});

describe("benchmark.md, whole", () => {
  it("renders every part of a simulated benchmark with a baseline, a verdict and notes", () => {
    expect(renderBenchmarkMarkdown(full)).toBe(
      [
        "# Benchmark: pdf",
        "",
        "> **SIMULATED** — these results come from skillgym sim, not a model. They test the eval suite, not the skill.",
        "",
        "- Model: claude-sonnet-4-5 (as reported by skillgym sim)",
        "- Judge: claude-opus-4-1",
        "- Run: 2026-01-15T10:30:00Z",
        "- Evals: 3, runs per configuration: 2, baseline: without_skill",
        "",
        "## Summary",
        "",
        "| Configuration | Graded runs | Pass rate | Time (s) | Tokens |",
        "|---|---|---|---|---|",
        "| with_skill | 2 of 3 | 0.75 ± 0.35 (0.50–1.00) | 12.3 ± 1.5 | unknown |",
        "| without_skill | 1 of 2 | 0.00 ± 0.00 (0.00–0.00) | 10.0 ± 0.0 (10.0–10.0) | 1000 ± 0 (1000–1000) |",
        "| delta |  | +0.75 | +2.3 | -1000 |",
        "",
        "**Pass-rate delta (with_skill − without_skill):** +0.75 (95% CI +0.50 to +1.00), paired over 1 run.",
        "",
        "**Verdict for the skill:** no effect (the whole interval within ±0.05).",
        "",
        "**Redundant on this model:** the baseline already passes 90% and the skill has no effect on any eval. It costs -1000 tokens a run.",
        "",
        "## Per eval",
        "",
        "| Eval | with_skill | without_skill | Delta | Verdict |",
        "|---|---|---|---|---|",
        "| Eval 1 (Ocean) | 0.75 | 0.00 | +0.75 (95% CI +0.50 to +1.00) | helps |",
        "| Eval 2 | — | — | no paired runs to compare | — |",
        "| Eval 3 | — | — | no paired runs to compare | — |",
        "",
        "## Notes",
        "",
        "- first second",
        "- third",
        "",
      ].join("\n"),
    );
  });

  it("renders a benchmark without a baseline: no delta, no verdict columns, no notes section", () => {
    const { statistics: _s, ...rest } = full;
    const { baseline_configuration: _b, executor_model: _e, analyzer_model: _a, ...metadata } = full.metadata;
    const alone = Benchmark.parse({
      ...rest,
      metadata: { ...metadata, simulated: false },
      runs: full.runs.filter((r) => r.configuration === "with_skill"),
      run_summary: { with_skill: full.run_summary.with_skill },
      notes: [],
    });
    expect(renderBenchmarkMarkdown(alone)).toBe(
      [
        "# Benchmark: pdf",
        "",
        "- Model: unknown",
        "- Judge: none",
        "- Run: 2026-01-15T10:30:00Z",
        "- Evals: 3, runs per configuration: 2",
        "",
        "## Summary",
        "",
        "| Configuration | Graded runs | Pass rate | Time (s) | Tokens |",
        "|---|---|---|---|---|",
        "| with_skill | 2 of 3 | 0.75 ± 0.35 (0.50–1.00) | 12.3 ± 1.5 | unknown |",
        "",
        "No baseline configuration was run: no delta.",
        "",
        "## Per eval",
        "",
        "| Eval | with_skill |",
        "|---|---|",
        "| Eval 1 (Ocean) | 0.75 |",
        "| Eval 2 | — |",
        "| Eval 3 | — |",
        "",
      ].join("\n"),
    );
  });

  it("says no graded runs for a configuration whose every run errored", () => {
    const b = Benchmark.parse({
      ...full,
      run_summary: { with_skill: full.run_summary.with_skill },
      statistics: undefined,
    });
    expect(renderBenchmarkMarkdown(b)).toContain("| without_skill | 1 of 2 | no graded runs |  |  |");
  });

  it("leaves out the pair count when the interval does not give it, and explains a paired estimate off the table's", () => {
    const stats = full.statistics!;
    const { pairs: _p, ...interval } = stats.delta_pass_rate;
    const b = Benchmark.parse({
      ...full,
      statistics: { ...stats, delta_pass_rate: { ...interval, estimate: 0.5 }, redundant: undefined },
    });
    const md = renderBenchmarkMarkdown(b);
    expect(md).toContain(
      "**Pass-rate delta (with_skill − without_skill):** +0.50 (95% CI +0.50 to +1.00). It pairs runs by eval and run number and weighs each eval equally; the table's delta compares every graded run.\n\n**Verdict for the skill:** no effect (the whole interval within ±0.05).\n\n## Per eval",
    );
  });

  it("does not explain an estimate within half a hundredth of the table's delta", () => {
    const stats = full.statistics!;
    const near = (estimate: number) =>
      renderBenchmarkMarkdown(
        Benchmark.parse({
          ...full,
          statistics: { ...stats, delta_pass_rate: { ...stats.delta_pass_rate, estimate } },
        }),
      );
    expect(near(0.7525)).not.toContain("weighs each eval equally");
    expect(near(0.74)).toContain("weighs each eval equally");
  });
});
