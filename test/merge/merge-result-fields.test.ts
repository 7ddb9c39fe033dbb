import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergeShards } from "../../src/merge/index.js";
import { tempDir } from "../e2e/helpers.js";
import { EVAL_RUNS, inFirst, shardInfo, TRIGGER_RUNS, triggerInFirst, writeRun } from "./shard-fixture.js";

// What a merge reports holds the fields of what it merged and no others: a caller tells "no benchmark", "whole"
// or "no trigger results" by a field's absence.
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

const keys = (o: object | undefined) => Object.keys(o ?? {}).sort();

async function merge(name: string, parts: { evals: boolean; triggers: boolean }) {
  const shards: string[] = [];
  for (const index of [1, 2]) {
    const first = index === 1;
    shards.push(
      await writeRun({
        dir: join(dir, name, `shard-${index}`, "iteration-1"),
        record: parts.evals ? shardInfo(index) : null,
        evalRuns: EVAL_RUNS.filter((r) => inFirst(r) === first),
        plan: parts.triggers ? shardInfo(index, 2, "t1") : null,
        triggerRuns: TRIGGER_RUNS.filter((r) => triggerInFirst(r) === first),
      }),
    );
  }
  return mergeShards({ shardDirs: shards, into: join(dir, name, "merged") });
}

describe("the fields of a merge's result", () => {
  it("has a whole merge's benchmark, trigger results and run, and nothing of a partial or a merge of agents", async () => {
    const result = await merge("both", { evals: true, triggers: true });
    expect(keys(result)).toEqual([
      "benchmark",
      "evalRuns",
      "iterationDir",
      "mergedFrom",
      "reportFile",
      "run",
      "simulated",
      "skillName",
      "triggerRuns",
      "triggers",
    ]);
    expect(result.skillName).toBe("demo");
    expect(keys(result.run)).toEqual([
      "agent",
      "benchmark",
      "budgetExhausted",
      "cancelled",
      "costUsd",
      "evals",
      "iterationDir",
      "reportFile",
      "savings",
      "simulated",
      "triggers",
      "wallSeconds",
    ]);
    expect(keys(result.run?.evals)).toEqual([
      "cancelled",
      "iteration",
      "iterationDir",
      "records",
      "resumed",
      "simulated",
    ]);
    expect(keys(result.run?.triggers)).toEqual([
      "cancelled",
      "iterationDir",
      "records",
      "results",
      "resultsFile",
      "simulated",
    ]);
  });

  it("has no benchmark when the shards ran triggers only, and no trigger results when they ran evals only", async () => {
    const triggers = await merge("triggers", { evals: false, triggers: true });
    expect(keys(triggers)).not.toContain("benchmark");
    // The skill's name comes from the trigger plan when no shard has an iteration record.
    expect(triggers.skillName).toBe("demo");
    expect(keys(triggers.run)).not.toContain("benchmark");
    const evals = await merge("evals", { evals: true, triggers: false });
    expect(keys(evals)).not.toContain("triggers");
    expect(evals.skillName).toBe("demo");
    expect(keys(evals.run)).not.toContain("triggers");
  });
});
