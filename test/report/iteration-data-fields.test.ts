import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readIterationData, readWorkspaceView } from "../../src/report/iteration-data.js";
import { resolveViewTarget } from "../../src/report/target.js";
import { createViewReader } from "../../src/report/view-reader.js";
import { tempDir, twoAgentsRecord, writeFakeIteration, writeFiles } from "./workspace-fixture.js";

// The fields an iteration's page and "over time" take from each file, one iteration per case: simulated and sandbox
// from iteration.json, benchmark.json or trigger-results.json (in that order), a partial merge, the trigger runs the
// result store served, judges.json, the baseline and run count of the summary, and an iteration of several agents.
let ws: Awaited<ReturnType<typeof tempDir>>;
const root = () => join(ws.dir, "fields-ws");
const dir = (n: number) => join(root(), `iteration-${n}`);
const json = (value: unknown) => JSON.stringify(value);

const record = (extra: Record<string, unknown> = {}) => ({
  skill_name: "record-skill",
  skill_path: "/skills/record-skill",
  skill_hash: "0".repeat(64),
  status: "complete",
  started_at: "2026-02-01T00:00:00.000Z",
  plan: { evals: ["e1", "e2"], configurations: ["with_skill", "without_skill"], runs_per_configuration: 3 },
  ...extra,
});

const partial = {
  count: 2,
  planned_runs: { eval: 4, trigger: 0 },
  missing_runs: { eval: 2, trigger: 0 },
  shards: [
    {
      index: 2,
      state: "missing",
      planned_runs: { eval: 2, trigger: 0 },
      missing_runs: { eval: 2, trigger: 0 },
    },
  ],
};
const partialWords =
  "partial merge: 2 of 4 eval runs missing (shard 2/2 not given: 2 of 2 eval runs missing); the figures cover only the runs that finished";

const triggers = (extra: Record<string, unknown> = {}) => ({
  skill_name: "demo-skill",
  description: "Does demo things.",
  results: [],
  summary: {
    total: 4,
    passed: 3,
    failed: 1,
    errors: 0,
    precision: 1,
    recall: 0.5,
    f1: 0.667,
    accuracy: 0.75,
  },
  ...extra,
});

const triggerRun = (reused: boolean) => ({
  query: "q",
  should_trigger: true,
  synthetic_name: "demo-x",
  triggered: true,
  skills_loaded: [],
  stolen_by: [],
  outcome: "success",
  attempts: 1,
  duration_ms: 5,
  ...(reused ? { reused_from: { iteration: "/elsewhere/iteration-1" } } : {}),
});

const judges = {
  created_at: "2026-02-01T00:00:00.000Z",
  iteration_dir: "/ws/iteration-1",
  repeat: 1,
  runs: 0,
  simulated: true,
  judges: [],
  pairs: [],
  humans: [],
  human_marks: 0,
  self_consistency: [],
  ambiguous: [],
};

const stat = (mean: number) => ({ mean, stddev: 0 });
const summaryOf = (mean: number) => ({ pass_rate: stat(mean), time_seconds: stat(1), tokens: stat(1) });
const estimate = { estimate: 0.25, ci_low: 0.1, ci_high: 0.4, confidence: 0.95, distinguishable: true };

// The two-agent record of the other report tests, as a skill of its own started on another day.
const agentsRecord = {
  ...twoAgentsRecord,
  skill_name: "agents-skill",
  skill_path: "/skills/agents-skill",
  started_at: "2026-03-01T00:00:00.000Z",
};

beforeAll(async () => {
  ws = await tempDir("skillgym-iteration-fields-");
  // 1: simulated without a sim script, sandboxed, a partial merge, trigger runs partly served by the store, judges.
  await writeFakeIteration(dir(1), { evals: 1, runsPerConfiguration: 1 });
  await writeFiles(dir(1), {
    "iteration.json": json(record({ simulated: true, sim_script: null, sandbox: true, partial })),
    "triggers/trigger-results.json": json(triggers({ simulated: false, sandbox: false })),
    "triggers/query-1/run-1/trigger.json": json(triggerRun(true)),
    "triggers/query-1/run-2/trigger.json": json(triggerRun(true)),
    "triggers/query-3/run-1/trigger.json": json(triggerRun(true)),
    "triggers/query-2/run-1/trigger.json": json(triggerRun(false)),
    "triggers/query-4/notes.txt": "not a run",
    "judges.json": json(judges),
    "feedback.json": json({ reviews: [], status: "complete" }),
  });
  await writeFiles(root(), {
    "history.json": json({
      started_at: "2026-02-01T00:00:00.000Z",
      skill_name: "record-skill",
      current_best: "iteration-1",
      iterations: [
        {
          version: "iteration-1",
          parent: null,
          iteration: 1,
          expectation_pass_rate: 1,
          grading_result: "baseline",
          is_current_best: true,
          verdict: "helps",
        },
      ],
    }),
  });
  // 2: no iteration.json; benchmark.json simulated, its baseline named; the partial merge from the trigger plan.
  await writeFakeIteration(dir(2), { evals: 1, runsPerConfiguration: 1 });
  await rm(join(dir(2), "iteration.json"));
  const benchmark2 = JSON.parse(await readFile(join(dir(2), "benchmark.json"), "utf8"));
  benchmark2.metadata.simulated = true;
  await writeFiles(dir(2), {
    "benchmark.json": json(benchmark2),
    "triggers/trigger-results.json": json(triggers({ simulated: false, sandbox: false })),
    "triggers/plan.json": json({
      skill_name: "demo-skill",
      skill_hash: "0",
      description: "d",
      queries: ["q"],
      runs_per_query: 1,
      with_skills: [],
      status: "complete",
      partial,
    }),
  });
  // 3: only trigger results, simulated and sandboxed.
  await writeFiles(dir(3), {
    "triggers/trigger-results.json": json(triggers({ simulated: true, sandbox: true })),
  });
  // 4: simulated with a sim script; a record that says not simulated wins over benchmark.json; no baseline
  // named, the summary has an old_skill only; a plan of 12 runs but benchmark.json lists 2.
  await writeFiles(dir(4), {
    "iteration.json": json(record({ simulated: true, sim_script: "/s.json" })),
    "benchmark.json": json({
      metadata: {
        skill_name: "bench-skill",
        timestamp: "2026-04-01T00:00:00.000Z",
        evals_run: ["e1"],
        runs_per_configuration: 1,
        simulated: false,
      },
      run_summary: { with_skill: summaryOf(0.75), old_skill: summaryOf(0.25) },
      statistics: { delta_pass_rate: estimate },
      runs: [
        {
          eval_id: "e1",
          configuration: "with_skill",
          run_number: 1,
          result: { pass_rate: 1, passed: 1, total: 1 },
        },
        {
          eval_id: "e1",
          configuration: "old_skill",
          run_number: 1,
          result: { pass_rate: 0, passed: 0, total: 1 },
        },
      ],
    }),
  });
  // 5: a plan and no benchmark.json: the plan's run count; not simulated although the benchmark would say so.
  await writeFiles(dir(5), {
    "iteration.json": json(record({ simulated: false, sim_script: null })),
    "triggers/trigger-results.json": json(triggers({ simulated: true })),
  });
  // 6: benchmark.json that names old_skill as baseline but has no summary of it; without_skill in the summary.
  await writeFiles(dir(6), {
    "benchmark.json": json({
      metadata: {
        skill_name: "six",
        timestamp: "2026-06-01T00:00:00.000Z",
        evals_run: [],
        runs_per_configuration: 1,
        baseline_configuration: "old_skill",
      },
      run_summary: { without_skill: summaryOf(0.5) },
      runs: [],
    }),
  });
  // 7: benchmark.json that names no baseline, with a without_skill summary; 8: several agents, no root
  // benchmark.json; 9: several agents with one at the root (as a merge may leave); 10: runs and nothing else.
  await writeFiles(dir(7), {
    "benchmark.json": json({
      metadata: {
        skill_name: "seven",
        timestamp: "2026-07-01T00:00:00.000Z",
        evals_run: [],
        runs_per_configuration: 1,
      },
      run_summary: { with_skill: summaryOf(1), without_skill: summaryOf(0.25) },
      runs: [],
    }),
  });
  await writeFakeIteration(join(dir(8), "claude-code"), { evals: 1, runsPerConfiguration: 1 });
  await writeFakeIteration(join(dir(8), "codex"), { evals: 2, runsPerConfiguration: 1 });
  await writeFiles(dir(8), {
    "iteration.json": json(agentsRecord),
    "codex/iteration.json": json(record({ simulated: true })),
  });
  await writeFakeIteration(join(dir(9), "claude-code"), { evals: 1, runsPerConfiguration: 1 });
  await writeFiles(dir(9), {
    "iteration.json": json(agentsRecord),
    "benchmark.json": json({
      metadata: {
        skill_name: "nine",
        timestamp: "2026-09-01T00:00:00.000Z",
        evals_run: [],
        runs_per_configuration: 1,
      },
      run_summary: { with_skill: summaryOf(0.5) },
      runs: [],
    }),
  });
  await writeFakeIteration(dir(10), { evals: 1, runsPerConfiguration: 2 });
  await rm(join(dir(10), "iteration.json"));
  await rm(join(dir(10), "benchmark.json"));
  await writeFiles(dir(10), {
    "eval-e1/eval_metadata.json": json({ eval_id: 7, eval_name: "greets", prompt: "Say hi", assertions: [] }),
  });
  // 11: an eval folder without eval_metadata.json and a run without grading.json: benchmark.json still gives it.
  await writeFakeIteration(dir(11), { evals: 1, runsPerConfiguration: 1 });
  await rm(join(dir(11), "eval-e1/eval_metadata.json"));
  await rm(join(dir(11), "eval-e1/with_skill/run-1/grading.json"));
  // 12: eval_metadata.json's id is not the folder's name, and benchmark.json names the eval by that id.
  await writeFakeIteration(dir(12), { evals: 1, runsPerConfiguration: 1 });
  await rm(join(dir(12), "eval-e1/with_skill/run-1/grading.json"));
  const benchmark = JSON.parse(await readFile(join(dir(12), "benchmark.json"), "utf8"));
  for (const run of benchmark.runs) run.eval_id = 7;
  await writeFiles(dir(12), {
    "benchmark.json": json(benchmark),
    "eval-e1/eval_metadata.json": json({ eval_id: 7, eval_name: "greets", prompt: "Say hi", assertions: [] }),
  });
});

afterAll(async () => {
  await ws?.cleanup();
});

async function detailOf(n: number) {
  const reader = createViewReader(await resolveViewTarget(root()));
  const iteration = reader.target.all.find((it) => it.number === n);
  if (!iteration) throw new Error(`no iteration-${n}`);
  return readIterationData(reader, iteration);
}

describe("readIterationData's fields", () => {
  it("reads simulated, sandbox and a missing sim script from iteration.json, and the rest of the folder", async () => {
    const detail = await detailOf(1);
    expect(detail).toMatchObject({
      status: "complete",
      simulated: true,
      sandbox: true,
      no_sim_script: true,
      partial: partialWords,
      triggers: triggers({ simulated: false, sandbox: false }),
      feedback: { reviews: {}, status: "complete", problem: null },
      judges,
    });
    expect(detail.benchmark?.configurations).toEqual(["with_skill", "without_skill"]);
    expect(detail.trigger_reused).toEqual({ "1": 2, "3": 1 });
  });

  it("reads simulated from benchmark.json and sandbox from trigger results without iteration.json", async () => {
    const detail = await detailOf(2);
    expect([detail.status, detail.simulated, detail.sandbox, detail.partial]).toEqual([
      null,
      true,
      false,
      partialWords,
    ]);
    expect(detail).not.toHaveProperty("no_sim_script");
    expect(detail).not.toHaveProperty("trigger_reused");
    expect(detail.judges).toBeNull();
  });

  it("reads simulated and sandbox from trigger results alone", async () => {
    const detail = await detailOf(3);
    expect([detail.simulated, detail.sandbox, detail.benchmark, detail.runs]).toEqual([true, true, null, []]);
    expect(detail).not.toHaveProperty("partial");
  });

  it("believes iteration.json over the other files, and names no missing script when there is one", async () => {
    const four = await detailOf(4);
    expect([four.simulated, four.sandbox]).toEqual([true, null]);
    expect(four).not.toHaveProperty("no_sim_script");
    const five = await detailOf(5);
    expect(five.simulated).toBe(false);
    expect(five).not.toHaveProperty("no_sim_script");
  });

  it("finds an eval's benchmark runs by its folder's name when it has no eval_metadata.json", async () => {
    const detail = await detailOf(11);
    expect(detail.runs.map((r) => [r.id, r.eval_id, r.eval_name, r.pass_rate, r.passed, r.total])).toEqual([
      ["eval-e1/with_skill/run-1", null, "eval-e1", 1, 4, 4],
      ["eval-e1/without_skill/run-1", null, "eval-e1", 0.5, 2, 4],
    ]);
  });

  it("finds an eval's benchmark runs by eval_metadata.json's id when it has one", async () => {
    const detail = await detailOf(12);
    expect(detail.runs.map((r) => [r.id, r.eval_id, r.pass_rate, r.passed, r.total])).toEqual([
      ["eval-e1/with_skill/run-1", 7, 1, 4, 4],
      ["eval-e1/without_skill/run-1", 7, 0.5, 2, 4],
    ]);
  });

  it("names runs by eval_metadata.json's id and name when it has them", async () => {
    const detail = await detailOf(10);
    expect(detail.runs.map((r) => [r.run_number, r.eval_id, r.eval_name])).toEqual([
      [1, 7, "greets"],
      [2, 7, "greets"],
      [1, 7, "greets"],
      [2, 7, "greets"],
    ]);
  });

  it("summarises a benchmark.json once per reader while the file is unchanged", async () => {
    const reader = createViewReader(await resolveViewTarget(root()));
    const iteration = reader.target.all[0];
    if (!iteration) throw new Error("no iteration");
    const first = await readIterationData(reader, iteration);
    const second = await readIterationData(reader, iteration);
    expect(first.benchmark).not.toBeNull();
    expect(second.benchmark).toBe(first.benchmark);
  });
});

describe("readWorkspaceView's summaries", () => {
  it("sums each iteration up from the files it has", async () => {
    const view = await readWorkspaceView(createViewReader(await resolveViewTarget(root())));
    expect(view.shown).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(view.skill_name).toBe("demo-skill");
    const [one, two, three, four, five, six, seven, eight, nine, ten] = view.iterations;
    expect(one).toEqual({
      number: 1,
      name: "iteration-1",
      status: "complete",
      started_at: "2026-02-01T00:00:00.000Z",
      simulated: true,
      runs: 2,
      baseline_configuration: "without_skill",
      with_skill_pass_rate: 1,
      baseline_pass_rate: 0.5,
      delta_pass_rate: null,
      trigger_accuracy: 0.75,
      trigger_f1: 0.667,
      feedback_status: "complete",
      history: {
        version: "iteration-1",
        parent: null,
        delta: null,
        verdict: "helps",
        redundant: false,
        effect_floor: null,
        change: null,
        regressed_evals: null,
      },
    });
    expect(two).toMatchObject({ status: null, started_at: "2026-01-01T00:00:00.000Z", simulated: true });
    expect(three).toMatchObject({
      status: null,
      started_at: null,
      simulated: true,
      runs: 0,
      baseline_configuration: null,
      with_skill_pass_rate: null,
      baseline_pass_rate: null,
      trigger_accuracy: 0.75,
    });
    expect(four).toMatchObject({
      started_at: "2026-02-01T00:00:00.000Z",
      simulated: true,
      runs: 2,
      baseline_configuration: "old_skill",
      with_skill_pass_rate: 0.75,
      baseline_pass_rate: 0.25,
      delta_pass_rate: estimate,
      trigger_accuracy: null,
      trigger_f1: null,
    });
    expect(five).toMatchObject({ simulated: false, runs: 12, baseline_configuration: null });
    expect(six).toMatchObject({
      runs: 0,
      baseline_configuration: "old_skill",
      with_skill_pass_rate: null,
      baseline_pass_rate: null,
      started_at: "2026-06-01T00:00:00.000Z",
    });
    expect(seven).toMatchObject({
      baseline_configuration: "without_skill",
      baseline_pass_rate: 0.25,
      with_skill_pass_rate: 1,
    });
    expect(eight).toMatchObject({ runs: 6, simulated: true, with_skill_pass_rate: null });
    expect(Object.keys(eight?.agents ?? {})).toEqual(["claude-code", "codex"]);
    expect(eight?.agents?.["claude-code"]).toMatchObject({
      name: "iteration-8",
      runs: 2,
      simulated: false,
      with_skill_pass_rate: 1,
      history: null,
    });
    expect(eight?.agents?.codex).toMatchObject({ runs: 4, simulated: true, status: "complete" });
    expect(nine).toMatchObject({ runs: 0, with_skill_pass_rate: 0.5 });
    expect(ten).toMatchObject({ runs: 4, status: null, started_at: null, with_skill_pass_rate: null });
    for (const plain of [one, two, three, four, five, six, seven, nine, ten])
      expect(plain).not.toHaveProperty("agents");
  });

  it("names the skill from benchmark.json or the record of several agents, and none when no file names it", async () => {
    const six = createViewReader(await resolveViewTarget(dir(6)));
    expect((await readWorkspaceView(six)).skill_name).toBe("six");
    const three = createViewReader(await resolveViewTarget(dir(3)));
    expect((await readWorkspaceView(three)).skill_name).toBeNull();
    const eight = createViewReader(await resolveViewTarget(dir(8)));
    expect((await readWorkspaceView(eight)).skill_name).toBe("agents-skill");
  });
});
