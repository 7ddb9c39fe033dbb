import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useReleaseNotes } from "./command-fixture.js";

// `skillgym triggers` in this process on a copy of examples/release-notes with two trigger queries, on the double.
const { workspace, command: triggers } = useReleaseNotes("triggers");

const QUERY_1 =
  "Write release notes for v2.3.0 from the commits since the last tag; I pasted them into commits.txt";

describe("skillgym triggers", () => {
  it("prints each query's rate and verdict, the summary and where trigger-results.json is", async () => {
    const folder = workspace("text");
    const result = await triggers("--workspace", folder, "--runs", "1");
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(`  pass  should     trigger   1/1  ${QUERY_1.slice(0, 70)}`);
    expect(lines[1]).toBe(
      "  pass  should not trigger   0/1  Review this pull request description and suggest a clearer title",
    );
    expect(lines[2]).toBe(
      "2/2 queries passed, 0 failed, 0 errored; precision 100%, recall 100%, F1 100%, accuracy 100% (simulated)",
    );
    expect(lines[3]).toBe(`  ${join(folder, "iteration-1", "triggers", "trigger-results.json")}`);
    expect(result.stderr).toContain(`writing ${join(folder, "iteration-1", "triggers")}: 2 runs`);
  });

  it("prints trigger-results.json with --json, with the flags' runs, threshold and description", async () => {
    const folder = workspace("json");
    const result = await triggers(
      "--workspace",
      folder,
      "--json",
      "--runs",
      "2",
      "--all-runs",
      "--threshold",
      "0.4",
      "--description",
      "Formats tables.",
    );
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout);
    expect(parsed).toMatchObject({
      skill_name: "release-notes",
      description: "Formats tables.",
      threshold: 0.4,
      runs_per_query: 2,
      all_runs: true,
      simulated: true,
      summary: { total: 2, passed: 1, failed: 1 },
    });
    expect(parsed.results.map((r: { runs: number }) => r.runs)).toEqual([2, 2]);
  });

  it("says what the store serves with --dry-run: three runs a query by default", async () => {
    const folder = workspace("dry");
    expect(await triggers("--workspace", folder, "--dry-run")).toEqual({
      code: 0,
      stdout:
        `result store: ${join(folder, ".skillgym-cache")}\n` +
        "  trigger runs: 0 of 6 served by the store, at most 6 to run\n" +
        "the rest costs about $0.00 (the store saves about $0.00)\n" +
        "nothing was started\n",
      stderr: "",
    });
  });

  it("refuses --screen replay with several models", async () => {
    const result = await triggers("--screen", "replay", "--model", "a,b");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "skillgym: --screen replay takes one model at a time\n" +
        "  fix: run triggers once per --model with --screen replay, or leave --screen out\n",
    );
  });
});

describe("skillgym triggers with several models", () => {
  it("runs each model's trigger runs, as many as --runs asks, into one iteration with no evals", async () => {
    const folder = workspace("models");
    const result = await triggers("--workspace", folder, "--model", "m1,m2", "--runs", "2");
    expect(result.code, result.stderr).toBe(0);
    const root = join(folder, "iteration-1");
    const record = JSON.parse(await readFile(join(root, "iteration.json"), "utf8"));
    expect(record.request).toEqual({
      evals: [],
      runs_per_configuration: 1,
      baseline: "none",
      trigger_queries: 2,
      trigger_runs: 2,
    });
    expect(record.lanes.map((l: { model: string }) => l.model)).toEqual(["m1", "m2"]);
    for (const model of ["m1", "m2"]) {
      const results = JSON.parse(
        await readFile(join(root, model, "triggers", "trigger-results.json"), "utf8"),
      );
      expect(results.runs_per_query).toBe(2);
      expect((await readdir(join(root, model))).filter((f) => f.startsWith("eval-"))).toEqual([]);
    }
    const lines = result.stdout.split("\n");
    expect(lines[1]).toBe(`models of ${root}:`);
    expect(lines.slice(3, 5).map((l) => l.split(/\s{2,}/).slice(1, 5))).toEqual([
      ["claude-code · m1", "n/a", "none", "n/a"],
      ["claude-code · m2", "n/a", "none", "n/a"],
    ]);
  });
});
