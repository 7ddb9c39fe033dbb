import { describe, expect, it } from "vitest";
import type { Benchmark } from "../../src/contracts/benchmark.js";
import type { TriggerResults } from "../../src/contracts/trigger-results.js";
import { evaluateGates } from "../../src/pipeline/gates.js";

const stat = (mean: number) => ({ mean, stddev: 0, min: mean, max: mean });
function benchmark(passRate: number, error?: string): Benchmark {
  return {
    metadata: { skill_name: "s", timestamp: "t", evals_run: [1], runs_per_configuration: 1 },
    runs: [
      {
        eval_id: 1,
        configuration: "with_skill",
        run_number: 1,
        result: { pass_rate: passRate, passed: 1, total: 1 },
        expectations: [],
        ...(error ? { error } : {}),
      },
    ],
    run_summary: { with_skill: { pass_rate: stat(passRate), time_seconds: stat(1), tokens: stat(1) } },
  };
}
const triggers = (accuracy: number): TriggerResults => ({
  skill_name: "s",
  description: "d",
  results: [],
  summary: { total: 4, passed: 3, failed: 1, errors: 0, precision: 1, recall: 0.5, f1: 2 / 3, accuracy },
});

describe("CI gates at their edges", () => {
  it("passes a trigger accuracy exactly at --min-trigger-accuracy", () => {
    expect(evaluateGates({ minTriggerAccuracy: 0.75 }, undefined, triggers(0.75))).toEqual([
      { name: "min-trigger-accuracy", passed: true, message: "trigger accuracy 75.0% >= 75.0%" },
    ]);
  });

  it("passes a pass rate exactly at --min-pass-rate", () => {
    expect(evaluateGates({ minPassRate: 0.5 }, benchmark(0.5), undefined)).toEqual([
      { name: "min-pass-rate", passed: true, message: "with_skill pass rate 50.0% >= 50.0%" },
    ]);
  });

  it("fails only the gate whose measure is short, each on its own measure", () => {
    const accuracyShort = evaluateGates(
      { minPassRate: 0.8, minTriggerAccuracy: 0.9 },
      benchmark(0.95),
      triggers(0.5),
    );
    expect(accuracyShort.map((g) => [g.name, g.passed])).toEqual([
      ["min-pass-rate", true],
      ["min-trigger-accuracy", false],
    ]);
    expect(accuracyShort[1]?.message).toBe("trigger accuracy 50.0% < 90.0%");
    const passRateShort = evaluateGates(
      { minPassRate: 0.8, minTriggerAccuracy: 0.9 },
      benchmark(0.5),
      triggers(1),
    );
    expect(passRateShort.map((g) => [g.name, g.passed])).toEqual([
      ["min-pass-rate", false],
      ["min-trigger-accuracy", true],
    ]);
    expect(passRateShort[0]?.message).toBe("with_skill pass rate 50.0% < 80.0%");
  });

  it("fails the pass-rate gate when every with_skill run errored, whatever the summary says", () => {
    const [gate] = evaluateGates({ minPassRate: 0.1 }, benchmark(1, "timeout"), undefined);
    expect(gate).toMatchObject({
      passed: false,
      message: "no graded with_skill runs to measure the pass rate",
    });
  });
});
