import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readIterationData, readWorkspaceView } from "../../src/report/iteration-data.js";
import { resolveViewTarget } from "../../src/report/target.js";
import { createViewReader } from "../../src/report/view-reader.js";
import { tempDir, writeFakeIteration } from "./workspace-fixture.js";

// Hand-edited iterations read back with exact values: runs from grading.json and timing.json when there is no
// benchmark.json, from benchmark.json when there is one, and the summary "over time" shows for each.
let ws: Awaited<ReturnType<typeof tempDir>>;
const root = () => join(ws.dir, "data-workspace");
const it1 = () => join(root(), "iteration-1");
const it2 = () => join(root(), "iteration-2");

async function edit(file: string, change: (value: Record<string, unknown>) => void): Promise<void> {
  const value = JSON.parse(await readFile(file, "utf8"));
  change(value);
  await writeFile(file, JSON.stringify(value));
}

beforeAll(async () => {
  ws = await tempDir("skillgym-iteration-data-");
  await writeFakeIteration(it1(), { evals: 1, runsPerConfiguration: 1 });
  await rm(join(it1(), "benchmark.json"));
  await writeFile(
    join(it1(), "eval-e1/without_skill/run-1/timing.json"),
    JSON.stringify({ outcome: "timeout", error: "took too long", attempts: 2 }),
  );
  await writeFakeIteration(it2(), { evals: 2, runsPerConfiguration: 1 });
  await rm(join(it2(), "iteration.json"));
  await rm(join(it2(), "eval-e2/eval_metadata.json"));
  await edit(join(it2(), "benchmark.json"), (benchmark) => {
    (benchmark.metadata as Record<string, unknown>).skill_name = "bench-skill";
    const runs = benchmark.runs as Record<string, unknown>[];
    (runs[1] as Record<string, unknown>).error = "crash: exit 3";
  });
});

afterAll(async () => {
  await ws?.cleanup();
});

const reader = async () => createViewReader(await resolveViewTarget(root()));

describe("readIterationData", () => {
  it("reads runs from grading.json and timing.json without a benchmark.json", async () => {
    const r = await reader();
    const detail = await readIterationData(r, r.target.all[0]!);
    expect(detail.runs).toEqual([
      {
        id: "eval-e1/with_skill/run-1",
        run_id: "eval-e1-with_skill-run-1",
        eval_dir: "eval-e1",
        eval_id: "e1",
        eval_name: "eval-e1",
        configuration: "with_skill",
        run_number: 1,
        pass_rate: 1,
        passed: 4,
        total: 4,
        error: null,
      },
      {
        id: "eval-e1/without_skill/run-1",
        run_id: "eval-e1-without_skill-run-1",
        eval_dir: "eval-e1",
        eval_id: "e1",
        eval_name: "eval-e1",
        configuration: "without_skill",
        run_number: 1,
        pass_rate: 0.5,
        passed: 2,
        total: 4,
        error: "timeout: took too long",
      },
    ]);
    expect(detail).toMatchObject({
      number: 1,
      name: "iteration-1",
      status: "complete",
      simulated: false,
      sandbox: null,
      benchmark: null,
      triggers: null,
      judges: null,
      feedback: { reviews: {}, status: null, problem: null },
    });
    expect(detail).not.toHaveProperty("partial");
    expect(detail).not.toHaveProperty("no_sim_script");
    expect(detail).not.toHaveProperty("trigger_reused");
  });

  it("names a failed run's outcome alone when it gave no error", async () => {
    const timing = join(it1(), "eval-e1/without_skill/run-1/timing.json");
    const before = await readFile(timing, "utf8");
    await writeFile(timing, JSON.stringify({ outcome: "crash", attempts: 1 }));
    try {
      const r = await reader();
      const detail = await readIterationData(r, r.target.all[0]!);
      expect(detail.runs.map((run) => run.error)).toEqual([null, "crash"]);
    } finally {
      await writeFile(timing, before);
    }
  });

  it("reads runs from benchmark.json, by eval folder where eval_metadata.json is missing", async () => {
    const r = await reader();
    const detail = await readIterationData(r, r.target.all[1]!);
    expect(
      detail.runs.map((run) => [
        run.id,
        run.eval_id,
        run.eval_name,
        run.pass_rate,
        run.passed,
        run.total,
        run.error,
      ]),
    ).toEqual([
      ["eval-e1/with_skill/run-1", "e1", "eval-e1", 1, 4, 4, null],
      ["eval-e1/without_skill/run-1", "e1", "eval-e1", null, null, null, "crash: exit 3"],
      ["eval-e2/with_skill/run-1", null, "eval-e2", 1, 4, 4, null],
      ["eval-e2/without_skill/run-1", null, "eval-e2", 0.5, 2, 4, null],
    ]);
    expect(detail.status).toBeNull();
    expect(detail.benchmark).not.toBeNull();
  });

  it("shows a benchmark run's figures, not its grading.json's", async () => {
    const grading = join(it2(), "eval-e1/with_skill/run-1/grading.json");
    const before = await readFile(grading, "utf8");
    await edit(grading, (g) => {
      g.summary = { passed: 0, failed: 4, total: 4, pass_rate: 0 };
    });
    try {
      const r = await reader();
      expect((await readIterationData(r, r.target.all[1]!)).runs[0]?.pass_rate).toBe(1);
    } finally {
      await writeFile(grading, before);
    }
  });
});

describe("readWorkspaceView", () => {
  it("sums up each iteration and names the skill from the latest iteration that says", async () => {
    const view = await readWorkspaceView(await reader());
    expect(view.skill_name).toBe("bench-skill");
    expect(view.path).toBe(root());
    expect(view.shown).toEqual([1, 2]);
    expect(view.iterations).toEqual([
      {
        number: 1,
        name: "iteration-1",
        status: "complete",
        started_at: "2026-01-01T00:00:00.000Z",
        simulated: false,
        runs: 2,
        baseline_configuration: null,
        with_skill_pass_rate: null,
        baseline_pass_rate: null,
        delta_pass_rate: null,
        trigger_accuracy: null,
        trigger_f1: null,
        feedback_status: null,
        history: null,
      },
      {
        number: 2,
        name: "iteration-2",
        status: null,
        started_at: "2026-01-01T00:00:00.000Z",
        simulated: false,
        runs: 4,
        baseline_configuration: "without_skill",
        with_skill_pass_rate: 1,
        baseline_pass_rate: 0.5,
        delta_pass_rate: null,
        trigger_accuracy: null,
        trigger_f1: null,
        feedback_status: null,
        history: null,
      },
    ]);
  });

  it("names the skill from iteration.json first, and from an earlier iteration when the latest says nothing", async () => {
    const single = createViewReader(await resolveViewTarget(it1()));
    expect((await readWorkspaceView(single)).skill_name).toBe("demo-skill");
    const bench = join(it2(), "benchmark.json");
    const before = await readFile(bench, "utf8");
    await rm(bench);
    try {
      expect((await readWorkspaceView(await reader())).skill_name).toBe("demo-skill");
    } finally {
      await writeFile(bench, before);
    }
  });
});
