import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, useReleaseNotes } from "./command-fixture.js";

// `skillgym merge` of the shards of an eval of two models (`--model m1,m2`): eval 1 only, on the test double.
const fixture = useReleaseNotes("eval");
const shard = (n: number) => fixture.workspace(`models-shard-${n}`);

beforeAll(async () => {
  for (const n of [1, 2]) {
    const run = await fixture.command(
      "--model",
      "m1,m2",
      "--only",
      "1",
      "--workspace",
      shard(n),
      "--shard",
      `${n}/2`,
    );
    expect(run.code, run.stderr).toBe(0);
  }
});

const merge = (into: string, ...flags: string[]) =>
  cli([
    "merge",
    join(shard(1), "iteration-1"),
    join(shard(2), "iteration-1"),
    "--into",
    fixture.workspace(into),
    ...flags,
  ]);

describe("skillgym merge of several models' shards", () => {
  it("prints the models' matrix and each model's gates, named", async () => {
    const result = await merge("models-merged", "--min-pass-rate", "0.9");
    expect(result.code, result.stderr).toBe(0);
    const iteration = join(fixture.workspace("models-merged"), "iteration-1");
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines.slice(0, 2)).toEqual([
      `merged shards 1, 2 of 2: 4 eval runs, 0 trigger runs into ${iteration}`,
      "SIMULATED: skillgym sim stood in for the model; these results test the suite, not the skill.",
    ]);
    expect(lines[2]).toMatch(/^ {2}Agent +With skill +Baseline /);
    expect(lines[3]).toMatch(/^ {2}claude-code · m1 +100% +17% \(without_skill\) /);
    expect(lines[4]).toMatch(/^ {2}claude-code · m2 +100% +17% \(without_skill\) /);
    expect(lines.slice(5)).toEqual([
      "gate min-pass-rate: passed (m1: with_skill pass rate 100.0% >= 90.0%)",
      "gate min-pass-rate: passed (m2: with_skill pass rate 100.0% >= 90.0%)",
      `report: ${join(iteration, "report.html")}`,
    ]);
  });

  it("fails a gate any model fails with exit 1, each gate of the JSON naming its model", async () => {
    const result = await merge("models-json", "--min-trigger-accuracy", "0.5", "--json");
    expect(result.code).toBe(1);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.gates).toMatchObject([
      { name: "min-trigger-accuracy", passed: false, agent: "m1", message: expect.stringMatching(/^m1: /) },
      { name: "min-trigger-accuracy", passed: false, agent: "m2", message: expect.stringMatching(/^m2: /) },
    ]);
    expect(parsed.agents).toHaveLength(2);
  });
});
