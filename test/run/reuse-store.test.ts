import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runEvals } from "../../src/run/index.js";
import { forecastEvalRuns } from "../../src/run/store-forecast.js";
import { readJson, skillMd } from "../e2e/helpers.js";
import { type EvalBench, evalOptions, exists, startBench } from "./eval-fixtures.js";

// Eval runs reused from the result store: runEvals in this process on the test double and one sim.
let bench: EvalBench;
beforeAll(async () => {
  bench = await startBench({
    "stored/SKILL.md": skillMd("stored", "Writes a greeting card file.", "Write card.txt."),
    "stored/evals/evals.json": JSON.stringify({
      evals: [{ id: 1, prompt: "card: a greeting card for Ada", expectations: ["a card"] }],
    }),
    "mixed/SKILL.md": skillMd("mixed", "Writes a greeting card file.", "Write card.txt."),
    "mixed/evals/evals.json": JSON.stringify({
      evals: [
        { id: 1, prompt: "card: a greeting card for Ada", expectations: ["a card"] },
        { id: 2, prompt: "storm: a card in a storm", expectations: ["a card"] },
      ],
    }),
    // Two evals alike but for the file each is given.
    "guests/SKILL.md": skillMd("guests", "Writes a greeting card file.", "Write card.txt."),
    "guests/evals/files/ada.txt": "Ada\n",
    "guests/evals/files/bo.txt": "Bo\n",
    "guests/evals/evals.json": JSON.stringify({
      evals: [
        { id: 1, prompt: "quiet: greet", expectations: [], files: ["evals/files/ada.txt"] },
        { id: 2, prompt: "quiet: greet", expectations: [], files: ["evals/files/bo.txt"] },
      ],
    }),
  });
});
afterAll(() => bench.close());

const stored = (workspace: string, store: { judge?: string; fresh?: boolean } = {}) =>
  evalOptions(bench, workspace, {
    skillPath: join(bench.dir, "stored"),
    baseline: "none",
    store: { dir: join(bench.dir, "cache"), ...store },
    // The grading a judge would write beside the run.
    afterRun: async (run) => {
      await writeFile(join(run.spec.runDir, "grading.json"), '{"graded":true}\n');
      return {};
    },
  });

describe("eval runs and the result store", () => {
  it("copies a stored run in at no cost, keeping its grading only for the same judge, and reads nothing when fresh", async () => {
    const first = await runEvals(stored("ws-a"));
    expect(first.records.map((r) => [r.outcome, r.skipped, "reusedFrom" in r])).toEqual([
      ["success", false, false],
    ]);

    const second = await runEvals(stored("ws-b"));
    const source = {
      iteration: "iteration-1",
      run: "eval-1/with_skill/run-1",
      workspace: join(bench.dir, "ws-a"),
      cost_usd: 0,
    };
    expect(second.records.map((r) => [r.outcome, r.skipped, r.reusedFrom])).toEqual([
      ["success", true, source],
    ]);
    const run = join(second.iterationDir, "eval-1", "with_skill", "run-1");
    expect(await readFile(join(run, "outputs", "card.txt"), "utf8")).toBe("Hello, Ada!\n");
    expect(await readJson(join(run, "timing.json"))).toMatchObject({
      outcome: "success",
      cost_usd: 0,
      reused_from: source,
    });
    expect(await readFile(join(run, "grading.json"), "utf8")).toBe('{"graded":true}\n');

    // Another judge's grading is not reused: the run is copied without it.
    const otherJudge = await runEvals(stored("ws-c", { judge: "other" }));
    const copied = join(otherJudge.iterationDir, "eval-1", "with_skill", "run-1");
    expect(otherJudge.records.map((r) => r.skipped)).toEqual([true]);
    expect(await exists(join(copied, "outputs", "card.txt"))).toBe(true);
    expect(await exists(join(copied, "grading.json"))).toBe(false);

    const fresh = await runEvals(stored("ws-d", { fresh: true }));
    expect(fresh.records.map((r) => [r.outcome, r.skipped, "reusedFrom" in r])).toEqual([
      ["success", false, false],
    ]);
  });

  it("stores only the runs that succeeded", async () => {
    const options = (workspace: string) =>
      evalOptions(bench, workspace, {
        skillPath: join(bench.dir, "mixed"),
        baseline: "none",
        store: { dir: join(bench.dir, "cache-mixed") },
      });
    const first = await runEvals(options("ws-mixed-a"));
    expect(first.records.map((r) => [r.spec.evalName, r.outcome])).toEqual([
      ["eval-1", "success"],
      ["eval-2", "overloaded"],
    ]);
    const second = await runEvals(options("ws-mixed-b"));
    expect(second.records.map((r) => [r.spec.evalName, r.outcome, r.skipped])).toEqual([
      ["eval-1", "success", true],
      ["eval-2", "overloaded", false],
    ]);
    // Nor does a dry run count the overloaded run as one the store serves.
    expect(await forecastEvalRuns(options("ws-mixed-c"), false)).toMatchObject({
      runs: 2,
      served: 1,
      toRun: 1,
    });
  });

  it("keys each eval by its own staged workspace: a changed file is run again, the other served", async () => {
    const options = (workspace: string) =>
      evalOptions(bench, workspace, {
        skillPath: join(bench.dir, "guests"),
        baseline: "none",
        store: { dir: join(bench.dir, "cache-guests") },
      });
    await runEvals(options("ws-guests-a"));
    await writeFile(join(bench.dir, "guests", "evals", "files", "bo.txt"), "Bo Jensen\n");
    const second = await runEvals(options("ws-guests-b"));
    expect(second.records.map((r) => [r.spec.evalName, r.skipped])).toEqual([
      ["eval-1", true],
      ["eval-2", false],
    ]);
  });

  it("leaves no workspace staged for a key in a temp root kept with --keep-workspaces", async () => {
    let workspaceDir = "";
    await runEvals(
      evalOptions(bench, "ws-kept", {
        skillPath: join(bench.dir, "stored"),
        baseline: "none",
        store: { dir: join(bench.dir, "cache-kept") },
        keepWorkspaces: true,
        afterRun: async (run) => {
          workspaceDir = run.workspaceDir;
          return {};
        },
      }),
    );
    const tempRoot = dirname(dirname(workspaceDir));
    try {
      expect((await readdir(tempRoot)).sort()).toEqual([".skillgym-keep", "1-with_skill-1.run-1.a1"]);
    } finally {
      await rm(tempRoot, { recursive: true, force: true });
    }
  });

  it("keeps a copied run on resume as copied, even when the store is no longer read", async () => {
    // Made or copied from the tests above: either way the store holds the run after it, and copies it in next.
    await runEvals(stored("ws-resume-a"));
    const copied = await runEvals(stored("ws-resume-b"));
    const source = copied.records[0]?.reusedFrom;
    expect(source).toMatchObject({ iteration: "iteration-1", run: "eval-1/with_skill/run-1" });
    const resumed = await runEvals({ ...stored("ws-resume-b", { fresh: true }), resume: true });
    expect(resumed.iterationDir).toBe(copied.iterationDir);
    expect(resumed.records.map((r) => [r.outcome, r.skipped, r.reusedFrom])).toEqual([
      ["success", true, source],
    ]);
  });
});
