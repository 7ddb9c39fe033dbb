import { describe, expect, it } from "vitest";
import { escapeCell, renderBenchmarkMarkdown } from "../../src/bench/render-markdown.js";
import { Benchmark } from "../../src/contracts/benchmark.js";

const stat = (mean: number, stddev: number) => ({
  mean,
  stddev,
  min: mean - stddev,
  max: mean + stddev,
  n: 2,
});
const interval = (estimate: number, ci_low: number, ci_high: number) => ({
  estimate,
  ci_low,
  ci_high,
  confidence: 0.95,
  distinguishable: ci_low > 0 || ci_high < 0,
  pairs: 2,
});
const run = (configuration: string, run_number: number, pass_rate: number) => ({
  eval_id: 1,
  eval_name: "Pipes | and more",
  configuration,
  run_number,
  result: { pass_rate, passed: pass_rate * 2, failed: 2 - pass_rate * 2, total: 2 },
});

function benchmark(overrides: Record<string, unknown> = {}): Benchmark {
  return Benchmark.parse({
    metadata: {
      skill_name: "demo",
      executor_model: "claude-sonnet-4-5",
      analyzer_model: "none",
      timestamp: "2026-01-15T10:30:00Z",
      evals_run: [1],
      runs_per_configuration: 2,
      baseline_configuration: "without_skill",
      simulated: false,
    },
    runs: [
      run("without_skill", 1, 0.5),
      run("without_skill", 2, 0),
      run("with_skill", 1, 0.5),
      run("with_skill", 2, 0.5),
    ],
    run_summary: {
      with_skill: { pass_rate: stat(0.5, 0), time_seconds: stat(12, 1), tokens: stat(3000, 100) },
      without_skill: { pass_rate: stat(0.25, 0.3536), time_seconds: stat(10, 1), tokens: stat(1000, 100) },
      delta: { pass_rate: "+0.25", time_seconds: "+2.0", tokens: "+2000" },
    },
    notes: ["a note"],
    statistics: {
      method: "paired bootstrap",
      delta_pass_rate: interval(0.25, 0, 0.5),
      per_eval: [
        {
          eval_id: 1,
          eval_name: "Pipes | and more",
          with_skill_pass_rate: 0.5,
          baseline_pass_rate: 0.25,
          delta_pass_rate: interval(0.25, 0, 0.5),
        },
      ],
    },
    ...overrides,
  });
}

describe("renderBenchmarkMarkdown", () => {
  it("says plainly when the delta is not distinguishable from noise", () => {
    const md = renderBenchmarkMarkdown(benchmark());
    expect(md).toContain(
      "**Pass-rate delta (with_skill − without_skill):** +0.25 — not distinguishable from noise (95% CI +0.00 to +0.50), paired over 2 runs.",
    );
    expect(md).not.toContain("SIMULATED");
  });

  it("gives the interval alone when the delta is distinguishable", () => {
    const b = benchmark();
    const md = renderBenchmarkMarkdown({
      ...b,
      statistics: { ...b.statistics!, delta_pass_rate: interval(0.42, 0.2, 0.61) },
    });
    expect(md).toContain("+0.42 (95% CI +0.20 to +0.61)");
    expect(md).not.toContain("Pass-rate delta (with_skill − without_skill):** +0.42 — not");
    // The paired estimate differs from the table's +0.25: the markdown says why.
    expect(md).toContain("weighs each eval equally");
  });

  it("says there are no paired runs to compare when there is no interval", () => {
    const { statistics: _none, ...b } = benchmark();
    const md = renderBenchmarkMarkdown(b);
    expect(md).toContain(
      "**Pass-rate delta (with_skill − without_skill):** no paired runs to compare (an interval needs at least 2 runs graded in both).",
    );
    expect(md).not.toContain("CI");
  });

  it("shows the model, a row per configuration with mean ± stddev, and the delta row", () => {
    const md = renderBenchmarkMarkdown(benchmark());
    expect(md).toContain("- Model: claude-sonnet-4-5");
    expect(md).toContain(
      "| with_skill | 2 of 2 | 0.50 ± 0.00 (0.50–0.50) | 12.0 ± 1.0 (11.0–13.0) | 3000 ± 100 (2900–3100) |",
    );
    expect(md).toContain("| without_skill | 2 of 2 | 0.25 ± 0.35");
    expect(md).toContain("| delta |  | +0.25 | +2.0 | +2000 |");
    expect(md.indexOf("| with_skill |")).toBeLessThan(md.indexOf("| without_skill |"));
    expect(md).toContain("- a note");
  });

  it("escapes pipes in table cells", () => {
    const md = renderBenchmarkMarkdown(benchmark());
    expect(md).toContain("| Eval 1 (Pipes \\| and more) | 0.50 | 0.25 |");
    expect(escapeCell("a|b\nc")).toBe("a\\|b c");
    // A backslash is escaped first, so one before a pipe cannot swallow the pipe's escape.
    expect(escapeCell("C:\\runs|x")).toBe("C:\\\\runs\\|x");
    expect(escapeCell("a\\|b")).toBe("a\\\\\\|b");
  });

  it("puts a SIMULATED banner on simulated results", () => {
    const b = benchmark();
    const md = renderBenchmarkMarkdown({ ...b, metadata: { ...b.metadata, simulated: true } });
    expect(md).toMatch(/^# Benchmark: demo\n\n> \*\*SIMULATED\*\*.*skillgym sim, not a model/);
  });

  it("explains the paired estimate from half a hundredth away from the table's delta", () => {
    const b = benchmark();
    const at = (estimate: number) =>
      renderBenchmarkMarkdown({
        ...b,
        run_summary: {
          ...b.run_summary,
          delta: { pass_rate: "+0.01", time_seconds: "+2.0", tokens: "+2000" },
        },
        statistics: { ...b.statistics!, delta_pass_rate: interval(estimate, -0.2, 0.3) },
      });
    expect(at(0.005)).toContain("weighs each eval equally");
    expect(at(0.006)).not.toContain("weighs each eval equally");
  });

  it("has no notes section when the benchmark has no notes", () => {
    const { notes: _none, ...b } = benchmark();
    const md = renderBenchmarkMarkdown(b);
    expect(md).not.toContain("## Notes");
    expect(md.endsWith("\n")).toBe(true);
  });
});
