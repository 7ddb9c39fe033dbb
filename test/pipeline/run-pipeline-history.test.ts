import { access } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runPipeline } from "../../src/pipeline/index.js";
import type { PipelineOptions } from "../../src/pipeline/options.js";
import { readJson, writeTree } from "../e2e/helpers.js";
import { cardPipelineOptions, useCardBench } from "./pipeline-fixtures.js";

// runPipeline's eval stage alone, eval 2 once without a baseline: the iteration it writes into, what its
// iteration.json says and the row history.json gets.
const bench = useCardBench();

const evalsOnly = (workspace: string, overrides: Partial<PipelineOptions> = {}) =>
  runPipeline(
    cardPipelineOptions(bench.dir, () => bench.simulated(), {
      workspace: join(bench.dir, workspace),
      stage: "evals",
      only: ["2"],
      baseline: "none",
      ...overrides,
    }),
  );

const history = (workspace: string) => readJson(join(bench.dir, workspace, "history.json"));

describe("runPipeline's iteration and history", () => {
  it("records the model, the evals file, the project and the effect floor asked for", async () => {
    await writeTree(bench.dir, { "project/README.md": "A project." });
    const result = await evalsOnly("asked", {
      model: "m7",
      evalsPath: join(bench.dir, "card", "evals", "checks-only.json"),
      projectRoot: join(bench.dir, "project"),
      effectFloor: 0.2,
    });
    expect(await readJson(join(result.iterationDir, "iteration.json"))).toMatchObject({
      status: "complete",
      model: "m7",
      evals_path: join(bench.dir, "card", "evals", "checks-only.json"),
      project_root: join(bench.dir, "project"),
    });
    // Without a baseline the benchmark has no verdict to name its floor: the row keeps the one asked for.
    expect((await history("asked")).iterations).toEqual([
      expect.objectContaining({ version: "iteration-1", effect_floor: 0.2 }),
    ]);
  }, 60_000);

  it("leaves the history to the caller of an iteration it was given, and writes none for a shard", async () => {
    const into = { dir: join(bench.dir, "given", "iteration-4", "claude-code"), number: 4 };
    expect((await evalsOnly("given", { into })).benchmark).toBeDefined();
    await expect(access(join(bench.dir, "given", "history.json"))).rejects.toThrow();

    const shard = await evalsOnly("shard", { only: ["1", "2"], shard: { index: 1, count: 2 } });
    expect(shard.benchmark).toBeDefined();
    expect(await readJson(join(shard.iterationDir, "iteration.json"))).toMatchObject({
      shard: { index: 1, count: 2 },
    });
    await expect(access(join(bench.dir, "shard", "history.json"))).rejects.toThrow();
  }, 60_000);

  it("continues the latest iteration under --resume though the plan changed, else starts a new one", async () => {
    const first = await evalsOnly("resume");
    expect(first.iterationDir).toBe(join(bench.dir, "resume", "iteration-1"));
    expect((await evalsOnly("resume", { runs: 2, resume: true })).iterationDir).toBe(first.iterationDir);
    expect((await evalsOnly("resume", { runs: 3 })).iterationDir).toBe(
      join(bench.dir, "resume", "iteration-2"),
    );
  }, 60_000);
});
