import { describe, expect, it } from "vitest";
import { bootstrapMethod, buildBenchmark, chooseBaseline } from "../../src/bench/build-benchmark.js";
import type { IterationData, RunData } from "../../src/bench/model.js";
import { Benchmark } from "../../src/contracts/benchmark.js";
import type { IterationRecord } from "../../src/contracts/run-record.js";
import { grading, iterationRecord } from "./iteration-fixture.js";

type Configuration = RunData["configuration"];

function run(
  evalId: number,
  configuration: Configuration,
  runNumber: number,
  results: Record<string, boolean>,
  extra: Partial<RunData> = {},
): RunData {
  return {
    evalId,
    evalName: `eval-${evalId}`,
    configuration,
    runNumber,
    grading: grading(results),
    timing: { total_duration_seconds: 10, total_tokens: 1000 },
    outcome: "success",
    problems: [],
    ...extra,
  };
}

function iteration(runs: RunData[], extra: Partial<IterationData> = {}): IterationData {
  const ids = [...new Set(runs.map((r) => r.evalId))];
  const order: Configuration[] = ["with_skill", "without_skill", "old_skill"];
  return {
    dir: "/ws/pdf-workspace/iteration-3",
    evals: ids.map((id) => ({ id, name: `eval-${id}`, folder: `eval-${id}` })),
    configurations: order.filter((c) => runs.some((r) => r.configuration === c)),
    runs,
    problems: [],
    ...extra,
  };
}

const record = (plan: Partial<IterationRecord["plan"]>, extra: Record<string, unknown> = {}) =>
  iterationRecord({
    plan: { evals: [1], configurations: ["with_skill", "without_skill"], runs_per_configuration: 2, ...plan },
    ...extra,
  }) as IterationRecord;

const quick = { resamples: 200, timestamp: "2026-02-01T00:00:00Z" };

// Both arms pass, run after run: no effect, and the baseline already passes.
const steady = [1, 2].flatMap((k) => [
  run(1, "with_skill", k, { a: true }, { timing: { total_duration_seconds: 20, total_tokens: 3000 } }),
  run(1, "without_skill", k, { a: true }),
]);

describe("chooseBaseline", () => {
  it("takes the plan's baseline, even when its runs are missing", () => {
    const data = iteration(steady, { record: record({ configurations: ["with_skill", "old_skill"] }) });
    expect(chooseBaseline(data)).toBe("old_skill");
    expect(
      chooseBaseline({ ...data, record: record({ configurations: ["without_skill", "with_skill"] }) }),
    ).toBe("without_skill");
  });

  it("without one in the plan, takes old_skill, else without_skill from the folders, else none", () => {
    const plan = record({ configurations: ["with_skill"] });
    const both = iteration([...steady, run(1, "old_skill", 1, { a: true })], { record: plan });
    expect(chooseBaseline(both)).toBe("old_skill");
    expect(chooseBaseline(iteration(steady, { record: plan }))).toBe("without_skill");
    expect(chooseBaseline(iteration(steady))).toBe("without_skill");
    expect(chooseBaseline(iteration(steady.filter((r) => r.configuration === "with_skill")))).toBeUndefined();
  });
});

describe("buildBenchmark, from runs in memory", () => {
  it("reports what it was asked: the seed, the resamples, the confidence, the method", () => {
    const b = buildBenchmark(iteration(steady), { seed: 7, resamples: 300, confidence: 0.9 });
    expect(b.statistics).toMatchObject({
      method: bootstrapMethod,
      seed: 7,
      resamples: 300,
      delta_pass_rate: { confidence: 0.9 },
    });
    const defaults = buildBenchmark(iteration(steady));
    expect(defaults.statistics).toMatchObject({
      seed: 1,
      resamples: 10_000,
      delta_pass_rate: { confidence: 0.95 },
    });
  });

  it("calls a skill that changes nothing redundant, with what it costs, and per eval no effect", () => {
    const b = buildBenchmark(iteration(steady), quick);
    expect(Benchmark.parse(b)).toEqual(b);
    expect(b.statistics?.verdict).toEqual({ verdict: "no effect", floor: 0.05 });
    expect(b.statistics?.redundant).toEqual({
      baseline_pass_rate: 1,
      tokens_delta: "+2000",
      time_seconds_delta: "+10.0",
    });
    expect(b.statistics?.per_eval).toEqual([
      {
        eval_id: 1,
        eval_name: "eval-1",
        with_skill_pass_rate: 1,
        baseline_pass_rate: 1,
        delta_pass_rate: {
          estimate: 0,
          ci_low: 0,
          ci_high: 0,
          confidence: 0.95,
          distinguishable: false,
          pairs: 2,
        },
        flaky: false,
        verdict: { verdict: "no effect", floor: 0.05 },
      },
    ]);
  });

  it("does not call a skill redundant when one eval is not of no effect, though the whole suite is", () => {
    // Ten evals the baseline always passes; the skill fails eval 1 in one run of two.
    const ids = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const runs = ids.flatMap((id) =>
      [1, 2].flatMap((k) => [
        run(id, "with_skill", k, { a: id !== 1 || k === 1 }),
        run(id, "without_skill", k, { a: true }),
      ]),
    );
    const b = buildBenchmark(iteration(runs), { ...quick, effectFloor: 0.3 });
    expect(b.statistics?.verdict?.verdict).toBe("no effect");
    expect(b.statistics?.per_eval?.[0]?.verdict?.verdict).toBe("inconclusive");
    expect(b.run_summary.without_skill?.pass_rate.mean).toBe(1);
    expect(b.statistics?.redundant).toBeUndefined();
  });

  it("marks an eval flaky when an assertion passes in some runs of a configuration and fails in others", () => {
    const runs = [
      ...[1, 2].flatMap((k) => [
        run(1, "with_skill", k, { a: k === 1 }),
        run(1, "without_skill", k, { a: false }),
      ]),
      ...[1, 2].flatMap((k) => [
        run(2, "with_skill", k, { a: true }),
        run(2, "without_skill", k, { a: false }),
      ]),
    ];
    const b = buildBenchmark(iteration(runs), quick);
    expect(b.statistics?.per_eval?.map((e) => [e.eval_id, e.flaky])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it("raises the floor to an A/A spread wider than it, on every verdict, and keeps it at an equal one", () => {
    const runs = [1, 2, 3, 4].flatMap((k) => [
      run(1, "with_skill", k, { a: true }),
      run(1, "without_skill", k, { a: k === 4 }),
    ]);
    const noisy = buildBenchmark(iteration(runs), { ...quick, noiseSpread: 0.3 });
    expect(noisy.statistics?.verdict).toMatchObject({ floor: 0.3, noise_spread: 0.3 });
    expect(noisy.statistics?.per_eval?.[0]?.verdict).toMatchObject({ floor: 0.3, noise_spread: 0.3 });
    const equal = buildBenchmark(iteration(runs), { ...quick, effectFloor: 0.3, noiseSpread: 0.3 });
    expect(equal.statistics?.verdict).toEqual({ verdict: "inconclusive", floor: 0.3, runs_to_decide: 5 });
    expect(equal.statistics?.per_eval?.[0]?.verdict?.noise_spread).toBeUndefined();
  });

  it("summarizes a configuration's time and tokens as unknown when no run measured them", () => {
    const untimed = steady.map((r) => ({ ...r, timing: {} }));
    const b = buildBenchmark(iteration(untimed), quick);
    expect(b.run_summary.with_skill?.tokens).toEqual({ mean: 0, stddev: 0, n: 0 });
    expect(b.run_summary.with_skill?.time_seconds).toEqual({ mean: 0, stddev: 0, n: 0 });
    expect(b.run_summary.with_skill?.pass_rate).toEqual({ mean: 1, stddev: 0, min: 1, max: 1, n: 2 });
  });

  it("leaves out of the summary a configuration with no graded run, and then gives no delta", () => {
    const runs = [
      run(1, "with_skill", 1, { a: true }),
      run(
        1,
        "without_skill",
        1,
        { a: true },
        { exclusion: { kind: "errored", reason: "timeout", message: "t" } },
      ),
    ];
    const b = buildBenchmark(iteration(runs), quick);
    expect(Object.keys(b.run_summary)).toEqual(["with_skill"]);
  });

  it("lists each run with its figures, its grader's notes, then its own problems", () => {
    const noted = run(
      1,
      "with_skill",
      1,
      { a: true, b: false },
      {
        grading: {
          ...grading({ a: true, b: false }),
          user_notes_summary: { uncertainties: ["u"], needs_review: ["n"], workarounds: ["w"] },
          execution_metrics: { total_tool_calls: 7, errors_encountered: 2 },
        },
        problems: ["metrics.json is missing"],
      },
    );
    const ungraded = run(
      1,
      "without_skill",
      1,
      {},
      {
        grading: undefined,
        timing: undefined,
        exclusion: { kind: "ungraded", reason: "not graded", message: "not graded yet" },
      },
    );
    const b = buildBenchmark(iteration([noted, ungraded]), quick);
    expect(b.runs).toEqual([
      {
        eval_id: 1,
        eval_name: "eval-1",
        configuration: "with_skill",
        run_number: 1,
        result: {
          pass_rate: 0.5,
          passed: 1,
          failed: 1,
          total: 2,
          time_seconds: 10,
          tokens: 1000,
          tool_calls: 7,
          errors: 2,
        },
        expectations: noted.grading!.expectations,
        notes: ["u", "n", "w", "metrics.json is missing"],
      },
      {
        eval_id: 1,
        eval_name: "eval-1",
        configuration: "without_skill",
        run_number: 1,
        result: { pass_rate: 0, passed: 0, failed: 0, total: 0 },
        expectations: [],
        notes: [],
        error: "not graded yet",
      },
    ]);
    const measured = run(
      1,
      "with_skill",
      2,
      { a: true },
      {
        metrics: { total_tool_calls: 4, errors_encountered: 0 },
        grading: {
          ...grading({ a: true }),
          execution_metrics: { total_tool_calls: 7, errors_encountered: 2 },
        },
      },
    );
    expect(buildBenchmark(iteration([measured]), quick).runs[0]?.result).toMatchObject({
      tool_calls: 4,
      errors: 0,
    });
  });

  it("fills the metadata from the runs when there is no iteration.json", () => {
    const runs = [
      run(1, "with_skill", 3, { a: true }, { model: "m-b", simulated: true, judgeModel: "j-2" }),
      run(1, "with_skill", 1, { a: true }, { model: "m-a", judgeModel: "j-1" }),
      run(1, "with_skill", 2, { a: true }, { model: "m-b" }),
    ];
    const b = buildBenchmark(iteration(runs), { ...quick, judgeModel: "j-1" });
    expect(b.metadata).toEqual({
      skill_name: "pdf",
      executor_model: "m-a, m-b",
      analyzer_model: "j-1, j-2",
      judge_model: "j-1, j-2",
      timestamp: "2026-02-01T00:00:00Z",
      evals_run: [1],
      runs_per_configuration: 3,
      simulated: true,
    });
    const bare = buildBenchmark(
      iteration(
        runs.map(({ model: _m, judgeModel: _j, simulated: _s, ...r }) => r),
        { dir: "/tmp/x/iteration-1" },
      ),
      { resamples: 200 },
    );
    expect(bare.metadata).toMatchObject({
      skill_name: "unknown",
      executor_model: "unknown",
      analyzer_model: "none",
      timestamp: "unknown",
      simulated: false,
    });
    expect(bare.metadata.judge_model).toBeUndefined();
  });

  it("says the judge is unknown when a judge graded but no file names its model", () => {
    const judged = run(
      1,
      "with_skill",
      1,
      {},
      {
        grading: {
          ...grading({ a: true }),
          expectations: [{ text: "a", passed: true, evidence: "e", source: "judge" }],
        },
      },
    );
    const b = buildBenchmark(iteration([judged]), quick);
    expect(b.metadata.analyzer_model).toBe("unknown");
    expect(b.metadata.judge_model).toBeUndefined();
    const checked = {
      ...judged,
      grading: {
        ...judged.grading!,
        expectations: [{ ...judged.grading!.expectations[0]!, source: "check" as const }],
      },
    };
    expect(buildBenchmark(iteration([checked]), quick).metadata.analyzer_model).toBe("none");
  });

  it("takes the name, path, start, plan and simulation from iteration.json", () => {
    const rec = record({ runs_per_configuration: 5 }, { skill_name: "forms", simulated: true });
    const b = buildBenchmark(iteration(steady, { record: rec }), quick);
    expect(b.metadata).toMatchObject({
      skill_name: "forms",
      skill_path: "/skills/demo",
      timestamp: "2026-01-15T10:30:00Z",
      runs_per_configuration: 5,
      simulated: true,
    });
  });

  it("carries the partial merge, the ambiguous expectations and the iteration's problems into the notes", () => {
    const rec = record(
      {},
      {
        partial: {
          count: 2,
          planned_runs: { eval: 4, trigger: 0 },
          missing_runs: { eval: 0, trigger: 0 },
          shards: [],
        },
      },
    );
    const b = buildBenchmark(
      iteration(steady, {
        record: rec,
        problems: ["eval-9/ is odd"],
        ambiguous: [{ eval_id: 1, text: "a", reasons: ["split"] }],
      }),
      quick,
    );
    expect(b.notes?.[0]).toBe(
      "Partial merge: no run missing (); the figures cover only the runs that finished",
    );
    expect(b.notes).toContain('Ambiguous expectation "a" (eval 1): split');
    expect(b.notes?.at(-1)).toBe("eval-9/ is odd");
  });

  it("adds the disclosure coverage only when a run recorded what it opened", () => {
    expect(buildBenchmark(iteration(steady), quick).disclosure).toBeUndefined();
    const opened = steady.map((r) => ({
      ...r,
      activation: {
        skill: "pdf",
        configuration: r.configuration,
        fired: [],
        skill_fired: false,
        bundled_files: ["SKILL.md"],
        files_opened: [],
        unexpected_skills: [],
        contaminated: false,
        contamination: [],
      },
    }));
    expect(buildBenchmark(iteration(opened), quick).disclosure).toEqual([
      {
        eval_id: 1,
        configuration: "with_skill",
        runs: 2,
        fired: 0,
        files: [{ path: "SKILL.md", kind: "skill_md", opened_in: 0 }],
        never_opened: ["SKILL.md"],
      },
    ]);
  });
});
