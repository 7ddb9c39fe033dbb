import { describe, expect, it } from "vitest";
import type { Benchmark } from "../../src/contracts/benchmark.js";
import type { TriggerResults } from "../../src/contracts/trigger-results.js";
import { evaluateGates } from "../../src/pipeline/gates.js";
import { createBudget, reserveRun, settleRun } from "../../src/run/budget.js";

const stat = (mean: number) => ({ mean, stddev: 0, min: mean, max: mean });
const benchmark = (passRate: number): Benchmark => ({
  metadata: { skill_name: "s", timestamp: "t", evals_run: [1], runs_per_configuration: 1 },
  runs: [
    {
      eval_id: 1,
      configuration: "with_skill",
      run_number: 1,
      result: { pass_rate: passRate, passed: 1, total: 1 },
      expectations: [],
    },
  ],
  run_summary: { with_skill: { pass_rate: stat(passRate), time_seconds: stat(1), tokens: stat(1) } },
});
const triggers = (accuracy: number | null): TriggerResults => ({
  skill_name: "s",
  description: "d",
  results: [],
  summary: { total: 0, passed: 0, failed: 0, errors: 0, precision: null, recall: null, f1: null, accuracy },
});

describe("CI gates", () => {
  it("passes at the limit and fails below it", () => {
    expect(evaluateGates({ minPassRate: 0.8 }, benchmark(0.8), undefined)[0]?.passed).toBe(true);
    expect(evaluateGates({ minPassRate: 0.8 }, benchmark(0.79), undefined)[0]?.passed).toBe(false);
    expect(evaluateGates({ minTriggerAccuracy: 0.9 }, undefined, triggers(0.95))[0]?.passed).toBe(true);
    expect(evaluateGates({ minTriggerAccuracy: 0.9 }, undefined, triggers(0.85))[0]?.passed).toBe(false);
  });

  it("fails a gate whose measure is missing", () => {
    const [pass, accuracy] = evaluateGates(
      { minPassRate: 0.1, minTriggerAccuracy: 0.1 },
      undefined,
      triggers(null),
    );
    expect(pass).toMatchObject({ passed: false, message: expect.stringContaining("no graded") });
    expect(accuracy).toMatchObject({ passed: false, message: expect.stringContaining("no scored") });
  });

  it("is empty when no gate was asked for", () => {
    expect(evaluateGates({}, benchmark(0), triggers(0))).toEqual([]);
  });
});

describe("the spending limit", () => {
  it("starts a run only while spent plus runs in flight stay within the limit", () => {
    const budget = createBudget(1, 0.3);
    expect([reserveRun(budget), reserveRun(budget), reserveRun(budget)]).toEqual([true, true, true]);
    expect(reserveRun(budget)).toBe(false);
    expect(budget.exhausted).toBe(true);
    settleRun(budget, 0.5);
    expect(budget).toMatchObject({ inFlight: 2, spentUsd: 0.5 });
    expect(reserveRun(budget)).toBe(false);
    expect(reserveRun(undefined)).toBe(true);
  });
});
