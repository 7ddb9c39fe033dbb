import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillgym } from "../cli/cli-process.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { cardEval, greeterRunArgs, writeGreeter, writeGreeterSuite } from "./greeter-models.js";

// `run --model old,new` through the real Claude Code binary: the model it asks the simulator for is the part's, so
// the script's per-model rules decide each part's evals and trigger runs.
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeGreeter(dir);
  await writeGreeterSuite(dir, [cardEval]);
  await writeTree(dir, {
    "greeter/evals/triggers.json": JSON.stringify([
      { query: "Make a birthday card for my aunt", should_trigger: true },
      { query: "Please explain what a monad is", should_trigger: false },
    ]),
  });
});
afterEach(() => cleanup());

describe("run --model old,new with the real Claude Code", () => {
  it("runs each model into its own folder: the skill helps on old, is redundant on new, and stops triggering", async () => {
    const ws = join(dir, "ws");
    const result = skillgym([...greeterRunArgs(dir, "old,new", ws), "--trigger-runs", "1"]);
    expect(result.code, result.stderr).toBe(0);
    const iteration = join(ws, "iteration-1");
    const matrix = JSON.parse(await readFile(join(iteration, "matrix.json"), "utf8"));
    expect(
      matrix.agents.map((r: Record<string, unknown>) => [r.agent, r.model, r.verdict, r.redundant]),
    ).toEqual([
      ["claude-code", "old", "helps", undefined],
      ["claude-code", "new", "no effect", true],
    ]);
    expect(matrix.agents.map((r: { triggers: { accuracy: number } }) => r.triggers.accuracy)).toEqual([
      1, 0.5,
    ]);
    // The model Claude Code reported in its own init line is the one asked for.
    for (const model of ["old", "new"]) {
      const benchmark = JSON.parse(await readFile(join(iteration, model, "benchmark.json"), "utf8"));
      expect(benchmark.metadata.executor_model).toBe(model);
    }

    const diff = skillgym(["diff", join(iteration, "old"), join(iteration, "new"), "--json"]);
    expect(diff.code, diff.stderr).toBe(0);
    const queries = JSON.parse(diff.stdout).parts[0].queries;
    expect(queries.map((q: { change: string }) => q.change)).toEqual(["regressed", "unchanged"]);
  });
});
