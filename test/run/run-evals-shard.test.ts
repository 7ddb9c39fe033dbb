import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runEvals } from "../../src/run/index.js";
import { runIdentity } from "../../src/run/run-evals.js";
import { readJson, skillMd } from "../e2e/helpers.js";
import { type EvalBench, evalOptions, startBench } from "./eval-fixtures.js";

// `--shard i/n` of an eval run: runEvals in this process on the test double and one sim.
const suite = (prompt: string) =>
  JSON.stringify({
    evals: [
      { id: 1, prompt, expectations: ["a note"], files: ["evals/files/guest.txt"] },
      { id: 2, prompt: "quiet: a second note", expectations: ["a note"] },
    ],
  });
let bench: EvalBench;
beforeAll(async () => {
  const skill = (name: string, prompt: string) => ({
    [`${name}/SKILL.md`]: skillMd("sharded", "Writes notes.", "Write a note."),
    [`${name}/evals/evals.json`]: suite(prompt),
    [`${name}/evals/files/guest.txt`]: "Ada\n",
  });
  bench = await startBench({
    ...skill("sharded", "quiet: a first note"),
    // The same suite in another folder, and one whose first prompt differs.
    ...skill("moved/sharded", "quiet: a first note"),
    ...skill("reworded", "quiet: another first note"),
  });
});
afterAll(() => bench.close());

async function shardOf(skill: string, workspace: string) {
  const summary = await runEvals(
    evalOptions(bench, workspace, { skillPath: join(bench.dir, skill), shard: { index: 1, count: 2 } }),
  );
  const iteration = await readJson(join(summary.iterationDir, "iteration.json"));
  return { summary, iteration };
}

describe("a shard of an eval run", () => {
  it("runs its share of the plan and records the shard with a hash of the whole plan", async () => {
    const { summary, iteration } = await shardOf("sharded", "ws-shard");
    expect(summary.records.map((r) => `${r.spec.evalName} ${r.spec.configuration}`).sort()).toEqual([
      "eval-2 with_skill",
      "eval-2 without_skill",
    ]);
    expect(iteration.shard).toEqual({ index: 1, count: 2, plan_hash: "225188199fec27b4" });
    // The whole plan, not the shard's share of it.
    expect(iteration.plan).toEqual({
      evals: [1, 2],
      configurations: ["with_skill", "without_skill"],
      runs_per_configuration: 1,
    });
    expect(iteration.status).toBe("complete");
    const moved = await shardOf("moved/sharded", "ws-moved");
    const reworded = await shardOf("reworded", "ws-reworded");
    // Where the suite's files sit does not change the plan; what an eval asks does.
    expect((moved.iteration.shard as { plan_hash: string }).plan_hash).toBe(
      (iteration.shard as { plan_hash: string }).plan_hash,
    );
    expect((reworded.iteration.shard as { plan_hash: string }).plan_hash).not.toBe(
      (iteration.shard as { plan_hash: string }).plan_hash,
    );
  });

  it("names a run for sharding by its eval, configuration and run number", () => {
    const spec = {
      eval: { id: "note" },
      configuration: "without_skill",
      runNumber: 3,
    } as unknown as Parameters<typeof runIdentity>[0];
    expect(runIdentity(spec)).toBe('["eval","note","without_skill",3]');
  });

  it("resumes its own interrupted iteration", async () => {
    const options = (signal?: AbortSignal) =>
      evalOptions(bench, "ws-shard-resume", {
        skillPath: join(bench.dir, "sharded"),
        shard: { index: 1, count: 2 },
        ...(signal ? { signal } : {}),
      });
    const cancelled = await runEvals(options(AbortSignal.abort()));
    expect(cancelled.records).toEqual([]);
    const resumed = await runEvals(options());
    expect([resumed.iterationDir, resumed.resumed]).toEqual([cancelled.iterationDir, true]);
  });
});
