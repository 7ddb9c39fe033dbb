import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, useReleaseNotes } from "./command-fixture.js";
import { interrupted } from "./interrupted.js";

// `--shard`, `--junit`, `merge` and `--model a,b` in this process, on the test double: eval 1 only, its two runs
// (with and without the skill) split over two shards.
const fixture = useReleaseNotes("eval");

const SHARD_NOTE =
  "shard 1/2: partial figures, this shard's part of the plan only; `skillgym merge` every shard's folder for the whole result";
let shard1: { code: number; stdout: string; stderr: string };
beforeAll(async () => {
  shard1 = await fixture.command(
    "--only",
    "1",
    "--workspace",
    fixture.workspace("shard-1"),
    "--shard",
    "1/2",
    "--junit",
    fixture.workspace("shard-1.xml"),
  );
  expect(
    (await fixture.command("--only", "1", "--workspace", fixture.workspace("shard-2"), "--shard", "2/2"))
      .code,
  ).toBe(0);
});

describe("a sharded eval", () => {
  it("runs its part of the plan, says the figures are partial, and writes JUnit XML", async () => {
    expect(shard1.code).toBe(0);
    const lines = shard1.stdout.split("\n");
    expect(lines[0]).toBe(SHARD_NOTE);
    expect(lines[1]).toBe(
      "done: 1/1 runs finished, 0 errors, $0.0000 (simulated: skillgym sim stood in for the model)",
    );
    const xml = await readFile(fixture.workspace("shard-1.xml"), "utf8");
    expect(xml).toContain('<testsuites name="skillgym release-notes">');
    expect(xml).toContain('<testcase name="basic run-1" classname="release-notes.without_skill"');
  });

  it("refuses a shard outside 1..n before anything starts", async () => {
    const result = await fixture.command("--shard", "3/2");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: option '--shard <i\/n>' argument '3\/2' is invalid\. /);
  });
});

describe("skillgym merge", () => {
  const shards = () => [
    join(fixture.workspace("shard-1"), "iteration-1"),
    join(fixture.workspace("shard-2"), "iteration-1"),
  ];

  it("joins every shard into one iteration and says what `run` says, with its gates", async () => {
    const into = fixture.workspace("merged");
    const junit = fixture.workspace("merged.xml");
    const result = await cli([
      "merge",
      ...shards(),
      "--into",
      into,
      "--min-pass-rate",
      "0.9",
      "--junit",
      junit,
    ]);
    expect(result).toEqual({
      code: 0,
      stdout:
        `merged shards 1, 2 of 2: 2 eval runs, 0 trigger runs into ${join(into, "iteration-1")}\n` +
        "SIMULATED: skillgym sim stood in for the model; these results test the suite, not the skill.\n" +
        "evals: with_skill 100%, without_skill 17%, delta +0.83\n" +
        "cost: $0.0000\n" +
        "gate min-pass-rate: passed (with_skill pass rate 100.0% >= 90.0%)\n" +
        `report: ${join(into, "iteration-1", "report.html")}\n`,
      stderr: "",
    });
    expect(await readFile(junit, "utf8")).toContain('<testsuites name="skillgym release-notes">');
  });

  it("says nothing of the simulator when several models' shards were run by the models themselves, and which gates failed", async () => {
    const parts = [1, 2].map((n) => fixture.workspace(`models-real-${n}`));
    for (const [i, folder] of parts.entries()) {
      const run = await fixture.command(
        ...["--model", "m1,m2", "--only", "1", "--workspace", folder, "--shard", `${i + 1}/2`],
      );
      expect(run.code, run.stderr).toBe(0);
      // As a shard run on the models, not on the simulator, records itself.
      const record = join(folder, "iteration-1", "iteration.json");
      await writeFile(
        record,
        JSON.stringify({ ...JSON.parse(await readFile(record, "utf8")), simulated: false }),
      );
    }
    const into = fixture.workspace("models-real-merged");
    const merged = parts.map((p) => join(p, "iteration-1"));
    const result = await cli(["merge", ...merged, "--into", into, "--min-trigger-accuracy", "0.5"]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).not.toContain("SIMULATED");
    expect(result.stdout).toMatch(
      /^merged shards 1, 2 of 2: 4 eval runs, 0 trigger runs into .*\n {2}Agent +With skill/,
    );
    expect(result.stdout).toContain("\ngate min-trigger-accuracy: FAILED (m1: ");
  });

  it("merges a trigger shard cancelled before its results with --partial, its JUnit report named", async () => {
    const folder = fixture.workspace("triggers-cancelled");
    const { at } = fixture;
    const cancelled = await interrupted(() =>
      cli([
        "triggers",
        at.skill,
        "--simulate",
        "--agent-bin",
        at.binary,
        "--workspace",
        folder,
        "--shard",
        "1/2",
      ]),
    );
    expect(cancelled.code).toBe(130);
    const junit = fixture.workspace("triggers-cancelled.xml");
    const into = fixture.workspace("triggers-cancelled-merged");
    const result = await cli([
      "merge",
      join(folder, "iteration-1"),
      "--into",
      into,
      "--partial",
      "--junit",
      junit,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("partial merge: 6 of 6 trigger runs missing");
    // No trigger results to report: a JUnit file of no test cases, named for the skill the plan names.
    expect(await readFile(junit, "utf8")).toMatch(
      /^<\?xml [^\n]*\n<testsuites name="skillgym release-notes">\n+<\/testsuites>\n?$/,
    );
  });

  it("fails a gate with exit 1, and prints the merge as JSON", async () => {
    const into = fixture.workspace("merged-json");
    const result = await cli([
      "merge",
      ...shards(),
      "--into",
      into,
      "--min-trigger-accuracy",
      "0.5",
      "--json",
    ]);
    const parsed = JSON.parse(result.stdout);
    expect(parsed).toMatchObject({
      iteration_dir: join(into, "iteration-1"),
      merged_from: { shards: [1, 2], count: 2 },
      eval_runs: 2,
      trigger_runs: 0,
      report: join(into, "iteration-1", "report.html"),
    });
    expect(parsed).not.toHaveProperty("partial");
    expect(parsed.gates).toMatchObject([{ name: "min-trigger-accuracy", passed: false }]);
    expect(result.code).toBe(1);
  });

  it("refuses a missing shard, and with --partial merges what there is and says what is missing", async () => {
    const [first] = shards();
    const refused = await cli(["merge", first as string, "--into", fixture.workspace("part")]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("skillgym: the shards do not hold the whole plan:\n  shard 2/2 missing");
    const partial = await cli(["merge", first as string, "--into", fixture.workspace("part"), "--partial"]);
    expect(partial.code).toBe(0);
    expect(partial.stdout.split("\n").slice(0, 2)).toEqual([
      `merged shards 1 of 2: 1 eval runs, 0 trigger runs into ${join(fixture.workspace("part"), "iteration-1")}`,
      "partial merge: 1 of 2 eval runs missing (shard 2/2 not given: 1 of 1 eval runs missing); the figures cover only the runs that finished",
    ]);
    const json = JSON.parse(
      (await cli(["merge", first as string, "--into", fixture.workspace("part"), "--partial", "--json"]))
        .stdout,
    );
    expect(json.partial).toBeDefined();
  });
});

describe("eval --model a,b", () => {
  it("runs each model into one iteration and prints their matrix", async () => {
    const folder = fixture.workspace("models");
    const result = await fixture.command("--model", "m1,m2", "--only", "1", "--workspace", folder);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(
      "SIMULATED: skillgym sim stood in for the model; these results test the suite, not the skill.",
    );
    expect(lines[1]).toBe(`models of ${join(folder, "iteration-1")}:`);
    expect(lines[3]).toMatch(/^ {2}claude-code · m1 +100% +17% \(without_skill\) /);
    expect(lines[4]).toMatch(/^ {2}claude-code · m2 +100% +17% \(without_skill\) /);
    expect(lines.slice(5)).toEqual([
      "cost [m1]: $0.0000",
      "cost [m2]: $0.0000",
      "cost: $0.0000 (all models)",
      `matrix: ${join(folder, "iteration-1", "matrix.json")}`,
      `report: ${join(folder, "iteration-1", "report.html")}`,
    ]);
  });
});
