import { describe, expect, it } from "vitest";
import { Benchmark } from "../../src/contracts/index.js";
import { issueMessages, issuePaths } from "./issues.js";
import { seedBenchmark } from "./seed-examples.js";

const seedRun = seedBenchmark.runs[0]!;

function withRuns(runs: unknown[]) {
  return { ...seedBenchmark, runs };
}

describe("benchmark.json", () => {
  it("fails at runs[0].configuration when a run says `config`", () => {
    const { configuration, ...rest } = seedRun;
    const bad = withRuns([{ ...rest, config: configuration }]);
    expect(issuePaths(Benchmark, bad)).toEqual(["runs[0].configuration"]);
    expect(issueMessages(Benchmark, bad)[0]).toContain("`configuration`, not `config`");
  });

  it("fails at runs[0].result when pass_rate sits on the run itself", () => {
    const { result, ...rest } = seedRun;
    const bad = withRuns([{ ...rest, ...result }]);
    expect(issuePaths(Benchmark, bad)).toEqual(["runs[0].result"]);
    expect(issueMessages(Benchmark, bad)[0]).toContain("under `result`");
  });

  it("rejects a configuration the viewer does not know", () => {
    expect(issuePaths(Benchmark, withRuns([{ ...seedRun, configuration: "with-skill" }]))).toEqual([
      "runs[0].configuration",
    ]);
  });

  it("names the three configurations when a run's is not one of them", () => {
    expect(issueMessages(Benchmark, withRuns([{ ...seedRun, configuration: "with-skill" }]))).toEqual([
      'must be "with_skill", "without_skill" or "old_skill"',
    ]);
  });

  it("reports a result that is not an object as zod does, without the hint for a missing one", () => {
    const bad = withRuns([{ ...seedRun, result: 0.5 }]);
    expect(issuePaths(Benchmark, bad)).toEqual(["runs[0].result"]);
    expect(issueMessages(Benchmark, bad)).toEqual(["Invalid input: expected object, received number"]);
  });

  it("says which run is listed twice and where it was first", () => {
    const run = { ...seedRun, eval_id: "csv", configuration: "without_skill", run_number: 3 };
    expect(issueMessages(Benchmark, withRuns([run, seedRun, { ...run }]))).toEqual([
      'duplicate run (eval "csv", without_skill, run 3) first listed at runs[0]',
    ]);
  });

  it("rejects a delta that is not a signed number as text", () => {
    const bad = {
      ...seedBenchmark,
      run_summary: {
        ...seedBenchmark.run_summary,
        delta: { pass_rate: 0.5, time_seconds: "13.0", tokens: "+1700" },
      },
    };
    expect(issuePaths(Benchmark, bad)).toEqual([
      "run_summary.delta.pass_rate",
      "run_summary.delta.time_seconds",
    ]);
  });

  it("rejects the same run listed twice", () => {
    expect(issuePaths(Benchmark, withRuns([seedRun, { ...seedRun }]))).toEqual(["runs[1]"]);
    expect(Benchmark.safeParse(withRuns([seedRun, { ...seedRun, run_number: 2 }])).success).toBe(true);
  });

  it("reads skill-creator's aggregator output: no eval_name, other configuration names in run_summary", () => {
    const { eval_name: _omitted, ...run } = seedRun;
    const summary = seedBenchmark.run_summary.with_skill;
    const value = {
      ...seedBenchmark,
      runs: [run],
      run_summary: {
        new_skill: summary,
        old_skill: summary,
        delta: { pass_rate: "+0.00", time_seconds: "-1.5", tokens: "+0" },
      },
      notes: [],
    };
    expect(Benchmark.parse(value)).toEqual(value);
  });

  it("accepts our extras: an errored run, baseline, judge, simulated, statistics", () => {
    const value = {
      ...seedBenchmark,
      metadata: {
        ...seedBenchmark.metadata,
        baseline_configuration: "old_skill",
        judge_model: "claude-opus-4",
        simulated: true,
      },
      runs: [
        seedRun,
        {
          ...seedRun,
          configuration: "old_skill",
          result: {
            pass_rate: 0,
            passed: 0,
            failed: 0,
            total: 0,
            time_seconds: 120,
            tokens: 0,
            tool_calls: 0,
            errors: 1,
          },
          expectations: [],
          error: "timed out after 120s",
        },
      ],
      statistics: {
        method: "paired bootstrap",
        delta_pass_rate: {
          estimate: 0.5,
          ci_low: 0.3,
          ci_high: 0.7,
          confidence: 0.95,
          distinguishable: true,
        },
        per_eval: [
          {
            eval_id: 1,
            eval_name: "Ocean",
            with_skill_pass_rate: 0.85,
            baseline_pass_rate: null,
            delta_pass_rate: null,
            flaky: false,
          },
        ],
      },
    };
    expect(Benchmark.parse(value)).toEqual(value);
  });

  it("rejects a with_skill baseline, and an interval whose ends are swapped", () => {
    const bad = {
      ...seedBenchmark,
      metadata: { ...seedBenchmark.metadata, baseline_configuration: "with_skill" },
      statistics: {
        delta_pass_rate: {
          estimate: 0.5,
          ci_low: 0.7,
          ci_high: 0.3,
          confidence: 0.95,
          distinguishable: true,
        },
      },
    };
    expect(issuePaths(Benchmark, bad)).toEqual([
      "metadata.baseline_configuration",
      "statistics.delta_pass_rate.ci_low",
    ]);
  });
});
