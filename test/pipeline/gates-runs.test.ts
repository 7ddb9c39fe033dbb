import { describe, expect, it } from "vitest";
import type { Benchmark } from "../../src/contracts/benchmark.js";
import { evaluateGates } from "../../src/pipeline/gates.js";

const stat = (mean: number) => ({ mean, stddev: 0, min: mean, max: mean });
type Run = { configuration: string; error?: unknown };
function benchmark(runs: Run[]): Benchmark {
  return {
    metadata: { skill_name: "s", timestamp: "t", evals_run: [1], runs_per_configuration: 1 },
    runs: runs.map((r, i) => ({
      eval_id: 1,
      configuration: r.configuration,
      run_number: i + 1,
      result: { pass_rate: 1, passed: 1, total: 1 },
      expectations: [],
      ...("error" in r ? { error: r.error } : {}),
    })),
    run_summary: { with_skill: { pass_rate: stat(0.9), time_seconds: stat(1), tokens: stat(1) } },
  } as Benchmark;
}

const noRuns = {
  name: "min-pass-rate",
  passed: false,
  message: "no graded with_skill runs to measure the pass rate",
};

describe("which runs the pass-rate gate measures", () => {
  it("measures the pass rate when one with_skill run was graded, beside errored runs and runs without the skill", () => {
    const runs = [
      { configuration: "without_skill" },
      { configuration: "with_skill", error: "timeout" },
      { configuration: "with_skill" },
    ];
    expect(evaluateGates({ minPassRate: 0.5 }, benchmark(runs), undefined)).toEqual([
      { name: "min-pass-rate", passed: true, message: "with_skill pass rate 90.0% >= 50.0%" },
    ]);
  });

  it("counts a with_skill run whose error field is empty as graded", () => {
    const runs = [{ configuration: "with_skill", error: "" }];
    expect(evaluateGates({ minPassRate: 0.5 }, benchmark(runs), undefined)[0]?.passed).toBe(true);
  });

  it("fails, naming the gate, when only the runs without the skill were graded", () => {
    const runs = [{ configuration: "without_skill" }, { configuration: "with_skill", error: "timeout" }];
    expect(evaluateGates({ minPassRate: 0.5 }, benchmark(runs), undefined)).toEqual([noRuns]);
  });

  it("fails both gates, naming each, when nothing was measured", () => {
    expect(evaluateGates({ minPassRate: 0.5, minTriggerAccuracy: 0.5 }, undefined, undefined)).toEqual([
      noRuns,
      { name: "min-trigger-accuracy", passed: false, message: "no scored trigger runs to measure accuracy" },
    ]);
  });
});
