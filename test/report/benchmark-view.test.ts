import { describe, expect, it } from "vitest";
import { Benchmark, type BenchmarkRun, type Configuration } from "../../src/contracts/benchmark.js";
import { summariseBenchmark } from "../../src/report/benchmark-view.js";

// The Benchmark tab's summary of benchmark.json, checked whole: the order of the configurations, each eval's cells
// (mean pass rate of the graded runs, errors apart), its assertion grid (one character per run number) and the
// statistics it carries over.

const metadata = {
  skill_name: "demo-skill",
  timestamp: "2026-01-01T00:00:00.000Z",
  evals_run: ["e1", 2, "e3"],
  runs_per_configuration: 3,
  baseline_configuration: "without_skill" as const,
};
const stat = (mean: number) => ({ mean, stddev: 0 });
const runSummary = {
  with_skill: { pass_rate: stat(0.75), time_seconds: stat(2), tokens: stat(100) },
  without_skill: { pass_rate: stat(0.25), time_seconds: stat(1), tokens: stat(50) },
};
const estimate = (e: number) => ({
  estimate: e,
  ci_low: e - 0.1,
  ci_high: e + 0.1,
  confidence: 0.95,
  distinguishable: true,
});

function run(
  evalId: string | number,
  configuration: Configuration,
  runNumber: number,
  passRate: number,
  extra: Partial<BenchmarkRun> = {},
): BenchmarkRun {
  return {
    eval_id: evalId,
    configuration,
    run_number: runNumber,
    result: { pass_rate: passRate, passed: passRate * 2, total: 2 },
    ...extra,
  };
}

const expect2 = (a: boolean, b: boolean) => [
  { text: "says hello", passed: a, evidence: "seen" },
  { text: "says bye", passed: b, evidence: "seen" },
];

const full = Benchmark.parse({
  metadata,
  run_summary: runSummary,
  runs: [
    // Listed in the file's order: without_skill first, old_skill, then with_skill; the view puts with_skill first.
    run("e1", "without_skill", 1, 0.5, { eval_name: "greets", expectations: expect2(true, false) }),
    run("e1", "old_skill", 1, 0, { expectations: expect2(false, false) }),
    run("e1", "with_skill", 1, 1, { expectations: expect2(true, true) }),
    run("e1", "with_skill", 3, 0.5, { expectations: expect2(false, true) }),
    run("e1", "without_skill", 2, 0, { error: "timeout", expectations: [] }),
    // Eval 2 by number in evals_run, a string "2" in its runs: one eval; its name from the statistics.
    run("2", "with_skill", 1, 1),
    run("2", "with_skill", 2, 0.5),
    run(2, "without_skill", 1, 0, { error: "crash: exit 1" }),
    run(2, "without_skill", 2, 1, { error: "crash: exit 2" }),
    // Not in evals_run: listed after those that are, named by its id.
    run("e9", "with_skill", 2, 1, { expectations: [{ text: "says hello", passed: true, evidence: "x" }] }),
  ],
  statistics: {
    method: "paired bootstrap",
    delta_pass_rate: estimate(0.4),
    per_eval: [
      {
        eval_id: "e1",
        eval_name: "not this name: the runs name it",
        with_skill_pass_rate: 0.75,
        baseline_pass_rate: 0.5,
        delta_pass_rate: estimate(0.25),
        flaky: true,
        verdict: { verdict: "helps", floor: 0.1 },
      },
      {
        eval_id: 2,
        eval_name: "counts",
        with_skill_pass_rate: 0.75,
        baseline_pass_rate: null,
        delta_pass_rate: null,
        flaky: false,
      },
    ],
    verdict: { verdict: "inconclusive", floor: 0.1, runs_to_decide: 12 },
    redundant: { baseline_pass_rate: 0.9, tokens_delta: "+50" },
  },
  notes: ["first note", "second note"],
});

describe("summariseBenchmark", () => {
  it("orders configurations, sums each eval's cells and grid, and carries the statistics over", () => {
    expect(summariseBenchmark(full)).toEqual({
      metadata: full.metadata,
      run_summary: full.run_summary,
      configurations: ["with_skill", "old_skill", "without_skill"],
      delta_pass_rate: estimate(0.4),
      method: "paired bootstrap",
      verdict: { verdict: "inconclusive", floor: 0.1, runs_to_decide: 12 },
      redundant: { baseline_pass_rate: 0.9, tokens_delta: "+50" },
      evals: [
        {
          eval_id: "e1",
          eval_name: "greets",
          configurations: {
            with_skill: { pass_rate: 0.75, graded: 2, errors: 0 },
            old_skill: { pass_rate: 0, graded: 1, errors: 0 },
            without_skill: { pass_rate: 0.5, graded: 1, errors: 1 },
          },
          delta_pass_rate: estimate(0.25),
          flaky: true,
          verdict: { verdict: "helps", floor: 0.1 },
        },
        {
          eval_id: 2,
          eval_name: "counts",
          configurations: {
            with_skill: { pass_rate: 0.75, graded: 2, errors: 0 },
            old_skill: { pass_rate: null, graded: 0, errors: 0 },
            without_skill: { pass_rate: null, graded: 0, errors: 2 },
          },
          delta_pass_rate: null,
          flaky: false,
          verdict: null,
        },
        {
          eval_id: "e9",
          eval_name: "eval-e9",
          configurations: {
            with_skill: { pass_rate: 1, graded: 1, errors: 0 },
            old_skill: { pass_rate: null, graded: 0, errors: 0 },
            without_skill: { pass_rate: null, graded: 0, errors: 0 },
          },
          delta_pass_rate: null,
          flaky: false,
          verdict: null,
        },
      ],
      grid: [
        {
          eval_id: "e1",
          eval_name: "greets",
          assertions: [
            { text: "says hello", cells: { with_skill: "1-0", old_skill: "0--", without_skill: "1--" } },
            { text: "says bye", cells: { with_skill: "1-1", old_skill: "0--", without_skill: "0--" } },
          ],
        },
        { eval_id: 2, eval_name: "counts", assertions: [] },
        {
          eval_id: "e9",
          eval_name: "eval-e9",
          assertions: [
            { text: "says hello", cells: { with_skill: "-1", old_skill: "--", without_skill: "--" } },
          ],
        },
      ],
      notes: ["first note", "second note"],
    });
  });

  it("leaves out an eval of evals_run that has no runs, and reads a benchmark without statistics or notes", () => {
    const bare = Benchmark.parse({
      metadata: { ...metadata, evals_run: ["gone", "e1"] },
      run_summary: {},
      runs: [run("e1", "with_skill", 1, 1)],
    });
    expect(summariseBenchmark(bare)).toEqual({
      metadata: bare.metadata,
      run_summary: {},
      configurations: ["with_skill"],
      delta_pass_rate: null,
      method: null,
      verdict: null,
      redundant: null,
      evals: [
        {
          eval_id: "e1",
          eval_name: "eval-e1",
          configurations: { with_skill: { pass_rate: 1, graded: 1, errors: 0 } },
          delta_pass_rate: null,
          flaky: false,
          verdict: null,
        },
      ],
      grid: [{ eval_id: "e1", eval_name: "eval-e1", assertions: [] }],
      notes: [],
    });
  });

  it("reads statistics without per-eval figures or a method", () => {
    const view = summariseBenchmark(
      Benchmark.parse({
        metadata: { ...metadata, evals_run: [] },
        run_summary: {},
        runs: [run(4, "without_skill", 1, 0.5)],
        statistics: { delta_pass_rate: estimate(0) },
      }),
    );
    expect(view.method).toBeNull();
    expect(view.delta_pass_rate).toEqual(estimate(0));
    expect(view.evals.map((e) => [e.eval_id, e.eval_name, e.delta_pass_rate, e.flaky])).toEqual([
      [4, "eval-4", null, false],
    ]);
  });

  it("puts configurations it does not know after the known ones, alphabetically", () => {
    // benchmark.json's schema admits only the three names; the ordering still holds for any other.
    const other = (name: string) => name as Configuration;
    const view = summariseBenchmark({
      metadata: { ...metadata, evals_run: ["e1"] },
      run_summary: {},
      runs: [
        run("e1", other("zeta"), 1, 1),
        run("e1", "without_skill", 1, 1),
        run("e1", other("alpha"), 1, 1),
        run("e1", "with_skill", 1, 1),
        run("e1", other("zeta"), 2, 1),
      ],
    });
    expect(view.configurations).toEqual(["with_skill", "without_skill", "alpha", "zeta"]);
  });
});
