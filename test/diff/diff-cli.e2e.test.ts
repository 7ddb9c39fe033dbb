import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DiffReport } from "../../src/contracts/diff.js";
import { type FixtureRun, makeIteration } from "../bench/iteration-fixture.js";
import { skillgymHere } from "../cli/cli-in-process.js";
import { skillgym } from "../cli/cli-process.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const check = "Does the job";

// Each eval's with_skill runs pass or fail as its pattern says (y passes); the baseline always fails.
async function iteration(patterns: Record<number, string>, queries?: Record<string, [boolean, boolean]>) {
  const runs = Object.entries(patterns).flatMap(([id, pattern]) =>
    [...pattern].flatMap((p, i): FixtureRun[] => [
      { eval: Number(id), configuration: "with_skill", run: i + 1, results: { [check]: p === "y" } },
      { eval: Number(id), configuration: "without_skill", run: i + 1, results: { [check]: false } },
    ]),
  );
  const made = await makeIteration({
    evals: Object.keys(patterns).map((id) => ({ id: Number(id), assertions: [check] })),
    runs,
  });
  cleanups.push(made.cleanup);
  if (queries) {
    const results = Object.entries(queries).map(([query, [should, triggered]]) => ({
      query,
      should_trigger: should,
      trigger_rate: triggered ? 1 : 0,
      triggers: triggered ? 3 : 0,
      runs: 3,
      errors: 0,
      pass: should === triggered,
    }));
    const passed = results.filter((r) => r.pass).length;
    await mkdir(join(made.dir, "triggers"), { recursive: true });
    await writeFile(
      join(made.dir, "triggers", "trigger-results.json"),
      JSON.stringify({
        skill_name: "demo",
        description: "d",
        results,
        summary: { total: results.length, passed, failed: results.length - passed, errors: 0 },
      }),
    );
  }
  return made.dir;
}

describe("skillgym diff", () => {
  it("says unchanged everywhere for two identical iterations and exits 0 with --fail-on-regression", async () => {
    const queries = { "summarise the csv": [true, true], "what is the weather": [false, false] } as Record<
      string,
      [boolean, boolean]
    >;
    const a = await iteration({ 1: "yyy", 2: "nnn" }, queries);
    const b = await iteration({ 1: "yyy", 2: "nnn" }, queries);
    const result = await skillgymHere(["diff", a, b, "--fail-on-regression", "--json"]);
    expect(result.code).toBe(0);
    const report = DiffReport.parse(JSON.parse(result.stdout));
    expect(report.regressions).toBe(0);
    expect(report.parts[0]!.evals.map((e) => e.change)).toEqual(["unchanged", "unchanged"]);
    expect(report.parts[0]!.queries.map((q) => q.change)).toEqual(["unchanged", "unchanged"]);
    expect(report.parts[0]!.overall?.change).toBe("unchanged");
    expect(JSON.parse(await readFile(join(b, "diff.json"), "utf8"))).toEqual(report);
  });

  it("finds the eval that dropped and the query that stopped triggering, and exits 1 naming them", async () => {
    const a = await iteration({ 1: "yyy", 2: "yyy" }, { "summarise the csv": [true, true] });
    const b = await iteration({ 1: "yyy", 2: "nnn" }, { "summarise the csv": [true, false] });
    const summaryDir = await mkdtemp(join(tmpdir(), "skillgym-summary-"));
    cleanups.push(() => rm(summaryDir, { recursive: true, force: true }));
    const summaryFile = join(summaryDir, "summary.md");
    // The step summary comes from the environment: a process of its own.
    const result = skillgym(["diff", a, b, "--fail-on-regression"], {
      ...process.env,
      GITHUB_STEP_SUMMARY: summaryFile,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /\| 2 \| 100% \(3\) \| 0% \(3\) \| -1\.00 \(95% CI -1\.00 to -1\.00\) \| regressed \|/,
    );
    expect(result.stdout).toMatch(/\| 1 \| 100% \(3\) \| 100% \(3\) \| \+0\.00 .* \| unchanged \|/);
    expect(result.stderr).toContain("eval 2 regressed");
    expect(result.stderr).toContain('trigger query "summarise the csv" regressed: rate 100% → 0%');
    const summary = await readFile(summaryFile, "utf8");
    expect(summary).toContain("eval 2 regressed");
    expect(summary).not.toContain("eval 1 regressed");
  });

  it("calls a noisy eval inconclusive even when both iterations scored it alike", async () => {
    const a = await iteration({ 1: "yny" });
    const b = await iteration({ 1: "yny" });
    const report = JSON.parse((await skillgymHere(["diff", a, b, "--json"])).stdout);
    // Three runs a side of a coin flip cannot show a move under 0.05, and no affordable number of runs would.
    expect(report.parts[0].evals[0]).toMatchObject({ change: "inconclusive", a_pass_rate: 0.6667 });
    expect(report.parts[0].evals[0].runs_to_decide).toBeUndefined();
  });

  it("calls a rise improved and exits 0 even with --fail-on-regression", async () => {
    const a = await iteration({ 1: "nnn" });
    const b = await iteration({ 1: "yyy" });
    const result = await skillgymHere(["diff", a, b, "--fail-on-regression", "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).parts[0].evals[0].change).toBe("improved");
  });

  it("reports a drop smaller than the floor as unchanged only when the floor says so", async () => {
    const a = await iteration({ 1: "yyyyyyyyyy" });
    const b = await iteration({ 1: "yyyyyyyyyn" });
    const tight = JSON.parse((await skillgymHere(["diff", a, b, "--json"])).stdout);
    expect(tight.parts[0].evals[0].change).not.toBe("unchanged");
    const loose = JSON.parse((await skillgymHere(["diff", a, b, "--json", "--effect-floor", "0.5"])).stdout);
    expect(loose.parts[0].evals[0].change).toBe("unchanged");
  });

  it("refuses a folder that is no iteration, naming it, before writing anything", async () => {
    const a = await iteration({ 1: "yyy" });
    const empty = await mkdtemp(join(tmpdir(), "skillgym-empty-"));
    cleanups.push(() => rm(empty, { recursive: true, force: true }));
    const result = await skillgymHere(["diff", a, empty]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(empty);
  });
});
