import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runEvals } from "../../src/run/index.js";
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
});
