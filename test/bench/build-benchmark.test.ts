import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildBenchmark } from "../../src/bench/build-benchmark.js";
import { readIteration } from "../../src/bench/read-iteration.js";
import { Benchmark } from "../../src/contracts/benchmark.js";
import {
  type FixtureIteration,
  type FixtureRun,
  grading,
  iterationRecord,
  makeIteration,
} from "./iteration-fixture.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function benchmarkOf(fixture: FixtureIteration) {
  const iteration = await makeIteration(fixture);
  cleanups.push(iteration.cleanup);
  const benchmark = buildBenchmark(await readIteration(iteration.dir), { timestamp: "2026-02-01T00:00:00Z" });
  // Every benchmark we build must be one the viewer and our own schema accept.
  expect(Benchmark.parse(benchmark)).toEqual(benchmark);
  return benchmark;
}

const pdf = "Output is a PDF";
const table = "Has a table";
const trees = "Mentions trees";
const cites = "Cites a source";

// Every pair differs by +0.5: eval 1 goes 0.5 → 1, eval 2 goes 0 → 0.5.
const twoEvals: FixtureIteration = {
  evals: [
    { id: 1, name: "Ocean", assertions: [pdf, table] },
    { id: 2, name: "Forest", assertions: [trees, cites] },
  ],
  runs: [1, 2].flatMap((run): FixtureRun[] => [
    {
      eval: 1,
      configuration: "with_skill",
      run,
      results: { [pdf]: true, [table]: true },
      seconds: run === 1 ? 20 : 30,
      tokens: 3000,
      model: "claude-sonnet-4-5",
    },
    {
      eval: 1,
      configuration: "without_skill",
      run,
      results: { [pdf]: true, [table]: false },
      seconds: 10,
      tokens: 1000,
      model: "claude-sonnet-4-5",
    },
    {
      eval: 2,
      configuration: "with_skill",
      run,
      results: { [trees]: true, [cites]: false },
      seconds: run === 1 ? 20 : 30,
      tokens: 3000,
      model: "claude-sonnet-4-5",
    },
    {
      eval: 2,
      configuration: "without_skill",
      run,
      results: { [trees]: false, [cites]: false },
      seconds: 10,
      tokens: 1000,
      model: "claude-sonnet-4-5",
    },
  ]),
};

describe("buildBenchmark: summary and delta", () => {
  it("computes the seed's run_summary by hand, and the delta with_skill minus without_skill", async () => {
    const b = await benchmarkOf(twoEvals);
    // with_skill rates 1, 1, 0.5, 0.5: mean 0.75, stddev sqrt(4 × 0.0625 / 3) = 0.2887
    expect(b.run_summary.with_skill?.pass_rate).toEqual({
      mean: 0.75,
      stddev: 0.2887,
      min: 0.5,
      max: 1,
      n: 4,
    });
    expect(b.run_summary.without_skill?.pass_rate).toEqual({
      mean: 0.25,
      stddev: 0.2887,
      min: 0,
      max: 0.5,
      n: 4,
    });
    expect(b.run_summary.with_skill?.time_seconds).toMatchObject({ mean: 25, min: 20, max: 30 });
    expect(b.run_summary.delta).toEqual({ pass_rate: "+0.50", time_seconds: "+15.0", tokens: "+2000" });
    expect(b.statistics?.delta_pass_rate).toMatchObject({
      estimate: 0.5,
      ci_low: 0.5,
      ci_high: 0.5,
      confidence: 0.95,
      distinguishable: true,
    });
    expect(
      b.statistics?.per_eval?.map((e) => [e.eval_id, e.with_skill_pass_rate, e.baseline_pass_rate]),
    ).toEqual([
      [1, 1, 0.5],
      [2, 0.5, 0],
    ]);
  });

  it("fills metadata with the real model, the plan's runs per configuration and the baseline", async () => {
    const b = await benchmarkOf(twoEvals);
    expect(b.metadata).toEqual({
      skill_name: "demo",
      skill_path: "/skills/demo",
      executor_model: "claude-sonnet-4-5",
      analyzer_model: "none",
      timestamp: "2026-01-15T10:30:00Z",
      evals_run: [1, 2],
      runs_per_configuration: 2,
      baseline_configuration: "without_skill",
      simulated: false,
    });
    expect(b.runs[0]).toMatchObject({
      eval_id: 1,
      eval_name: "Ocean",
      configuration: "with_skill",
      run_number: 1,
      result: {
        pass_rate: 1,
        passed: 2,
        failed: 0,
        total: 2,
        time_seconds: 20,
        tokens: 3000,
        tool_calls: 3,
        errors: 0,
      },
    });
    expect(b.runs[0]?.expectations?.map((e) => e.text)).toEqual([pdf, table]);
  });

  it("says executor_model unknown when no timing.json names a model", async () => {
    const b = await benchmarkOf({ ...twoEvals, runs: twoEvals.runs.map(({ model: _m, ...r }) => r) });
    expect(b.metadata.executor_model).toBe("unknown");
  });

  it("subtracts old_skill from with_skill although old_skill's folder sorts first", async () => {
    const worse: FixtureRun[] = [1, 2, 3].flatMap((run): FixtureRun[] => [
      { eval: 1, configuration: "old_skill", run, results: { a: true, b: true, c: true, d: false } },
      { eval: 1, configuration: "with_skill", run, results: { a: true, b: true, c: false, d: false } },
    ]);
    const record = iterationRecord({
      plan: { evals: [1], configurations: ["with_skill", "old_skill"], runs_per_configuration: 3 },
    });
    const b = await benchmarkOf({ record, evals: [{ id: 1 }], runs: worse });
    expect(b.metadata.baseline_configuration).toBe("old_skill");
    expect(b.run_summary.delta?.pass_rate).toBe("-0.25");
    expect(b.statistics?.delta_pass_rate).toMatchObject({
      estimate: -0.25,
      ci_low: -0.25,
      ci_high: -0.25,
      distinguishable: true,
    });
    expect(b.runs.map((r) => r.configuration)).toEqual([
      "with_skill",
      "with_skill",
      "with_skill",
      "old_skill",
      "old_skill",
      "old_skill",
    ]);

    // Without iteration.json the baseline is found from the folders, and the sign still holds.
    const better = worse.map(
      (r) =>
        ({ ...r, configuration: r.configuration === "old_skill" ? "with_skill" : "old_skill" }) as FixtureRun,
    );
    const b2 = await benchmarkOf({ record: null, evals: [{ id: 1 }], runs: better });
    expect(b2.metadata.baseline_configuration).toBe("old_skill");
    expect(b2.run_summary.delta?.pass_rate).toBe("+0.25");
    expect(b2.metadata.runs_per_configuration).toBe(3);
    expect(b2.metadata.skill_name).toBe("demo");
  });

  it("writes +0.00 for no difference and says it is not distinguishable", async () => {
    const runs: FixtureRun[] = [1, 2, 3].flatMap((run): FixtureRun[] => [
      { eval: 1, configuration: "with_skill", run, results: { a: run !== 2 } },
      { eval: 1, configuration: "without_skill", run, results: { a: run !== 1 } },
    ]);
    const b = await benchmarkOf({
      record: iterationRecord({
        plan: { evals: [1], configurations: ["with_skill", "without_skill"], runs_per_configuration: 3 },
      }),
      evals: [{ id: 1 }],
      runs,
    });
    expect(b.run_summary.delta?.pass_rate).toBe("+0.00");
    expect(b.statistics?.delta_pass_rate.distinguishable).toBe(false);
    expect(b.notes?.join("\n")).toContain("not distinguishable from noise");
  });
});

describe("buildBenchmark: runs that cannot count", () => {
  const plan = { evals: [1, 2], configurations: ["with_skill", "without_skill"], runs_per_configuration: 4 };
  const messy: FixtureIteration = {
    record: iterationRecord({ plan }),
    evals: [{ id: 1 }, { id: 2 }],
    runs: [
      ...[1, 2].flatMap((run): FixtureRun[] => [
        { eval: 1, configuration: "with_skill", run, results: { a: true } },
        { eval: 1, configuration: "without_skill", run, results: { a: false } },
      ]),
      // Graded, but the agent was overloaded: an error, not a pass.
      {
        eval: 1,
        configuration: "with_skill",
        run: 3,
        outcome: "overloaded",
        error: "API overloaded",
        results: { a: false },
      },
      { eval: 1, configuration: "with_skill", run: 4, outcome: "overloaded" },
      { eval: 1, configuration: "without_skill", run: 3, outcome: "timeout" },
      { eval: 1, configuration: "without_skill", run: 4 },
      { eval: 2, configuration: "with_skill", run: 1, grading: "{ not json" },
      { eval: 2, configuration: "with_skill", run: 2, grading: { expectations: [], summary: { passed: 1 } } },
    ],
  };

  it("lists them with an error and leaves them out of the pass rates", async () => {
    const b = await benchmarkOf(messy);
    expect(b.runs).toHaveLength(16);
    expect(b.run_summary.with_skill?.pass_rate).toMatchObject({ mean: 1, n: 2 });
    expect(b.run_summary.without_skill?.pass_rate).toMatchObject({ mean: 0, n: 2 });
    const errorOf = (e: number, c: string, run: number) =>
      b.runs.find((r) => r.eval_id === e && r.configuration === c && r.run_number === run)?.error;
    expect(errorOf(1, "with_skill", 3)).toBe("overloaded: API overloaded");
    expect(errorOf(1, "without_skill", 4)).toContain("not graded yet");
    expect(errorOf(2, "with_skill", 1)).toMatch(
      /^eval-2\/with_skill\/run-1\/grading\.json at line 1, column \d+: invalid JSON/,
    );
    expect(errorOf(2, "with_skill", 2)).toContain(
      "eval-2/with_skill/run-2/grading.json at summary.failed: required",
    );
    expect(errorOf(2, "with_skill", 3)).toContain("not run");
    expect(errorOf(2, "without_skill", 4)).toContain("eval-2/without_skill/run-4/ does not exist");
  });

  it("counts them per configuration in the notes", async () => {
    const notes = (await benchmarkOf(messy)).notes ?? [];
    expect(notes).toContain("with_skill: 2 runs errored (overloaded) and are left out of the pass rates");
    expect(notes).toContain("without_skill: 1 run errored (timeout) and is left out of the pass rates");
    expect(notes).toContain("without_skill: 1 run is not graded yet and is left out of the pass rates");
    expect(notes).toContain("with_skill: 2 planned runs were never run and are left out of the pass rates");
    expect(notes).toContain(
      "without_skill: 4 planned runs were never run and are left out of the pass rates",
    );
    expect(notes.some((n) => n.startsWith("with_skill: 2 runs have unreadable files"))).toBe(true);
  });

  it("names mixed error kinds with their counts", async () => {
    const runs: FixtureRun[] = [
      { eval: 1, configuration: "with_skill", run: 1, outcome: "overloaded" },
      { eval: 1, configuration: "with_skill", run: 2, outcome: "overloaded" },
      { eval: 1, configuration: "with_skill", run: 3, outcome: "timeout" },
    ];
    const b = await benchmarkOf({ record: null, evals: [{ id: 1 }], runs });
    expect(b.notes).toContain(
      "with_skill: 3 runs errored (2 overloaded, 1 timeout) and are left out of the pass rates",
    );
    expect(b.run_summary.with_skill).toBeUndefined();
  });
});

describe("buildBenchmark: without enough to compare", () => {
  it("has no interval with a single pair, and says so", async () => {
    const b = await benchmarkOf({
      record: iterationRecord({
        plan: { evals: [1], configurations: ["with_skill", "without_skill"], runs_per_configuration: 1 },
      }),
      evals: [{ id: 1 }],
      runs: [
        { eval: 1, configuration: "with_skill", run: 1, results: { a: true } },
        { eval: 1, configuration: "without_skill", run: 1, results: { a: false } },
      ],
    });
    expect(b.statistics).toBeUndefined();
    expect(b.run_summary.delta?.pass_rate).toBe("+1.00");
    expect(b.notes?.some((n) => n.includes("no paired runs to compare"))).toBe(true);
  });

  it("has no delta without a baseline", async () => {
    const b = await benchmarkOf({
      record: iterationRecord({
        plan: { evals: [1], configurations: ["with_skill"], runs_per_configuration: 2 },
      }),
      evals: [{ id: 1 }],
      runs: [1, 2].map(
        (run): FixtureRun => ({ eval: 1, configuration: "with_skill", run, results: { a: true } }),
      ),
    });
    expect(b.run_summary.delta).toBeUndefined();
    expect(b.statistics).toBeUndefined();
    expect(b.metadata.baseline_configuration).toBeUndefined();
    expect(b.notes?.[0]).toContain("no delta");
  });

  it("does not pair runs whose partner errored", async () => {
    const b = await benchmarkOf({
      record: iterationRecord({
        plan: { evals: [1], configurations: ["with_skill", "without_skill"], runs_per_configuration: 3 },
      }),
      evals: [{ id: 1 }],
      runs: [
        ...[1, 2, 3].map(
          (run): FixtureRun => ({ eval: 1, configuration: "with_skill", run, results: { a: true } }),
        ),
        { eval: 1, configuration: "without_skill", run: 1, results: { a: false } },
        { eval: 1, configuration: "without_skill", run: 2, outcome: "crash" },
        { eval: 1, configuration: "without_skill", run: 3, results: { a: true } },
      ],
    });
    // Pairs: run 1 (+1) and run 3 (0); run 2 has no partner.
    expect(b.statistics?.delta_pass_rate).toMatchObject({ estimate: 0.5, pairs: 2, ci_low: 0, ci_high: 1 });
  });
});

describe("buildBenchmark: simulated runs", () => {
  it("marks the metadata and says so first in the notes", async () => {
    const b = await benchmarkOf({ ...twoEvals, record: iterationRecord({ simulated: true }) });
    expect(b.metadata.simulated).toBe(true);
    expect(b.notes?.[0]).toContain("These results come from skillgym sim, not a model");
  });
});

describe("buildBenchmark: the judge", () => {
  it("names the judge model grading.json records as analyzer_model", async () => {
    const judged = { ...grading({ a: true }), judge_model: "claude-opus-4-1" };
    const b = await benchmarkOf({
      record: null,
      evals: [{ id: 1 }],
      runs: [{ eval: 1, configuration: "with_skill", run: 1, grading: judged }],
    });
    expect(b.metadata.analyzer_model).toBe("claude-opus-4-1");
    expect(b.metadata.judge_model).toBe("claude-opus-4-1");
  });
});

describe("buildBenchmark: what a run does not say", () => {
  it("leaves out the time, tokens, tool calls and errors a run did not record, and the noise spread when not given", async () => {
    const iteration = await makeIteration({
      ...twoEvals,
      runs: twoEvals.runs.map((r, i) => (i === 0 ? { ...r, timing: null } : r)),
    });
    cleanups.push(iteration.cleanup);
    await rm(join(iteration.dir, "eval-1/with_skill/run-1/outputs/metrics.json"));
    const b = buildBenchmark(await readIteration(iteration.dir));
    const bare = b.runs.find(
      (r) => r.eval_id === 1 && r.configuration === "with_skill" && r.run_number === 1,
    );
    expect(Object.keys(bare?.result ?? {})).toEqual(["pass_rate", "passed", "failed", "total"]);
    expect(Object.keys(b.statistics?.verdict ?? {})).not.toContain("noise_spread");
    expect(b.statistics?.verdict?.verdict).toBeDefined();
  });

  it("takes the plan's baseline over an old_skill folder also found", async () => {
    const b = await benchmarkOf({
      ...twoEvals,
      runs: [
        ...twoEvals.runs,
        { eval: 1, configuration: "old_skill", run: 1, results: { [pdf]: true, [table]: true } },
      ],
    });
    expect(b.metadata.baseline_configuration).toBe("without_skill");
  });

  it("says the judge is unknown when one expectation of one run was judged and no model is named", async () => {
    const mixed = {
      expectations: [
        { text: "a", passed: true, evidence: "seen", source: "check" },
        { text: "b", passed: true, evidence: "seen", source: "judge" },
      ],
      summary: { passed: 2, failed: 0, total: 2, pass_rate: 1 },
    };
    const b = await benchmarkOf({
      record: null,
      evals: [{ id: 1 }],
      runs: [
        { eval: 1, configuration: "with_skill", run: 1, results: { a: true } },
        { eval: 1, configuration: "with_skill", run: 2, grading: mixed },
      ],
    });
    expect(b.metadata.analyzer_model).toBe("unknown");
  });
});
