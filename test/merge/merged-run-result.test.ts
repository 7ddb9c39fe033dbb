import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergedRunResult } from "../../src/merge/merged-run-result.js";
import { writeIteration } from "../bench/iteration-fixture.js";
import { tempDir } from "../e2e/helpers.js";
import { scored, TRIGGER_RUNS, triggerRecord } from "./shard-fixture.js";

// A merged iteration read back as `run` reports one, from folders an older or cut-short run left.
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

const input = (at: string, more: Partial<Parameters<typeof mergedRunResult>[0]> = {}) => ({
  dir: at,
  simulated: false,
  rateLimits: {},
  reportFile: join(at, "report.html"),
  wallSeconds: 1,
  ...more,
});

describe("mergedRunResult", () => {
  it("names an eval without eval_metadata.json by its folder, and one with no prompt as unknown", async () => {
    const at = join(dir, "old");
    await writeIteration(at, {
      evals: [{ id: 1 }, { id: "setup" }],
      runs: [
        { eval: 1, configuration: "with_skill", run: 1, results: { x: true } },
        { eval: "setup", configuration: "with_skill", run: 1, results: { x: true } },
      ],
    });
    await rm(join(at, "eval-1", "eval_metadata.json"));
    await writeFile(
      join(at, "eval-setup", "eval_metadata.json"),
      JSON.stringify({ eval_id: "setup", eval_name: "set up", prompt: "", assertions: ["x"] }),
    );
    const result = await mergedRunResult(input(at));
    const [first, second] = result.evals?.records ?? [];
    expect(first?.spec.eval).toMatchObject({
      id: "1",
      name: "eval-1",
      prompt: "(unknown)",
      expectations: [],
    });
    expect(first?.spec.eval.numericId).toBe(0);
    expect(first?.spec.evalName).toBe("eval-1");
    expect(second?.spec.eval).toMatchObject({
      id: "setup",
      name: "set up",
      prompt: "(unknown)",
      expectations: ["x"],
    });
    expect(second?.spec.eval.numericId).toBe(0);
    expect(second?.spec.evalName).toBe("set up");
    // Runs but no benchmark: the runs are still reported.
    expect(result.evals?.records).toHaveLength(2);
    expect(result).not.toHaveProperty("benchmark");
    expect(result).not.toHaveProperty("triggers");
  });

  it("reads a trigger run's query and run from its folder, past 9 of each", async () => {
    const at = join(dir, "many");
    const run = join(at, "triggers", "query-12", "run-10");
    await mkdir(run, { recursive: true });
    const record = triggerRecord(TRIGGER_RUNS[0] as (typeof TRIGGER_RUNS)[number]);
    await writeFile(join(run, "trigger.json"), JSON.stringify(record));
    const result = await mergedRunResult(input(at, { triggers: scored(TRIGGER_RUNS) }));
    expect(result.triggers?.records.map((r) => [r.spec.queryIndex, r.queryIndex, r.spec.runNumber])).toEqual([
      [11, 11, 10],
    ]);
    expect(result.triggers?.records[0]).not.toHaveProperty("reusedFrom");
    expect(result.triggers?.records[0]).not.toHaveProperty("error");
    expect(result).not.toHaveProperty("evals");
    expect(result.costUsd).toBe(0.003);
  });

  it("counts the cost of trigger runs no shard scored, since each was cut short before its results", async () => {
    const at = join(dir, "unscored");
    const run = join(at, "triggers", "query-1", "run-1");
    await mkdir(run, { recursive: true });
    await writeFile(
      join(run, "trigger.json"),
      JSON.stringify(triggerRecord(TRIGGER_RUNS[0] as (typeof TRIGGER_RUNS)[number])),
    );
    const result = await mergedRunResult(input(at));
    expect(result).not.toHaveProperty("triggers");
    expect(result.costUsd).toBe(0.003);
  });
});
