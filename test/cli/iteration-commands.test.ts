import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { makeIteration } from "../bench/iteration-fixture.js";
import { cli, useReleaseNotes } from "./command-fixture.js";

// The commands that read iterations (bench, diff, grade), in this process, on iterations the test double wrote.
const fixture = useReleaseNotes("eval");

let evals: string;
let triggersA: string;
let triggersB: string;
beforeAll(async () => {
  const workspace = fixture.workspace("evals");
  expect((await fixture.command("--workspace", workspace)).code).toBe(0);
  evals = join(workspace, "iteration-1");
  // Two trigger iterations; in the second, a description that names none of the skill's uses loses query 1.
  const triggers = (...flags: string[]) =>
    main(
      ["triggers", fixture.at.skill, "--simulate", "--agent-bin", fixture.at.binary, "--runs", "1", ...flags],
      captureIo(),
    );
  const workspaceT = fixture.workspace("triggers");
  expect(await triggers("--workspace", workspaceT)).toBe(0);
  expect(await triggers("--workspace", workspaceT, "--description", "Formats tables.")).toBe(0);
  triggersA = join(workspaceT, "iteration-1");
  triggersB = join(workspaceT, "iteration-2");
});

const QUERY_1 = '"Write release notes for v2.3.0 from the commits since the last tag; I pasted th…"';

describe("skillgym bench", () => {
  it("prints benchmark.md and where it wrote both files", async () => {
    const result = await cli(["bench", evals]);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith("# Benchmark: release-notes\n")).toBe(true);
    expect(result.stdout).toContain("**Verdict for the skill:** helps (the whole interval above +0.05).");
    expect(
      result.stdout.endsWith(
        `\nwrote ${join(evals, "benchmark.json")}\nwrote ${join(evals, "benchmark.md")}\n`,
      ),
    ).toBe(true);
    expect(await readFile(join(evals, "benchmark.md"), "utf8")).toBe(
      result.stdout.slice(0, result.stdout.indexOf("\nwrote ")),
    );
  });

  it("prints benchmark.json with --json, the paths on stderr, with the flags' floor and seed", async () => {
    const result = await cli(["bench", evals, "--json", "--effect-floor", "0.9", "--seed", "7"]);
    expect(result.code).toBe(0);
    const benchmark = JSON.parse(result.stdout);
    expect(benchmark.statistics).toMatchObject({ seed: 7, verdict: { floor: 0.9 } });
    expect(benchmark.statistics.verdict.verdict).not.toBe("helps");
    expect(result.stderr).toBe(
      `wrote ${join(evals, "benchmark.json")}\nwrote ${join(evals, "benchmark.md")}\n`,
    );
  });
});

describe("skillgym diff", () => {
  it("prints diff.md, writes it into the later iteration, and exits 0 without --fail-on-regression", async () => {
    const result = await cli(["diff", triggersA, triggersB]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`- A: ${triggersA}\n- B: ${triggersB}\n`);
    expect(result.stdout).toContain(
      "- Effect floor: ±0.05 (a smaller move is reported as unchanged)\n- Regressions: 1\n",
    );
    expect(result.stdout).toContain(`| ${QUERY_1} | yes | 100% | 0% | regressed |`);
    expect(
      result.stdout.endsWith(`wrote ${join(triggersB, "diff.json")}\nwrote ${join(triggersB, "diff.md")}\n`),
    ).toBe(true);
    expect(result.stderr).toBe("");
  });

  it("exits 1 with --fail-on-regression, naming each regression, and prints diff.json with --json into --out", async () => {
    // --out names a folder that is not there yet: it is made.
    const out = join(fixture.workspace("diff-out"), "new");
    const result = await cli(["diff", triggersA, triggersB, "--fail-on-regression", "--json", "--out", out]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ regressions: 1, effect_floor: 0.05 });
    expect(result.stderr).toBe(
      `wrote ${join(out, "diff.json")}\nwrote ${join(out, "diff.md")}\n` +
        `trigger query ${QUERY_1} regressed: rate 100% → 0%\n`,
    );
    const none = await cli([
      "diff",
      triggersA,
      triggersA,
      "--fail-on-regression",
      "--out",
      out,
      "--effect-floor",
      "0.2",
    ]);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("- Effect floor: ±0.20 ");
  });

  it("adds the regressions, or that there are none, to GitHub's step summary", async () => {
    const summary = fixture.workspace("step-summary.md");
    const before = process.env.GITHUB_STEP_SUMMARY;
    process.env.GITHUB_STEP_SUMMARY = summary;
    try {
      await cli(["diff", triggersA, triggersB, "--out", fixture.workspace("d1")]);
      await cli(["diff", triggersA, triggersA, "--out", fixture.workspace("d2")]);
    } finally {
      if (before === undefined) delete process.env.GITHUB_STEP_SUMMARY;
      else process.env.GITHUB_STEP_SUMMARY = before;
    }
    expect(await readFile(summary, "utf8")).toBe(
      `## skillgym diff\n\n- ❌ trigger query ${QUERY_1} regressed: rate 100% → 0%\n\n` +
        "## skillgym diff\n\nNo regression beyond the floor.\n\n",
    );
  });
  it("names every regression, a line each, on stderr and in GitHub's step summary", async () => {
    const check = "Does the job";
    // Evals 1 and 2 pass all three runs in the first iteration and none in the second.
    const iteration = (passed: boolean) =>
      makeIteration({
        evals: [1, 2].map((id) => ({ id, assertions: [check] })),
        runs: [1, 2].flatMap((id) =>
          [1, 2, 3].map((run) => ({
            eval: id,
            configuration: "with_skill" as const,
            run,
            results: { [check]: passed },
          })),
        ),
      });
    const [a, b] = [await iteration(true), await iteration(false)];
    const summary = fixture.workspace("two-regressions.md");
    const before = process.env.GITHUB_STEP_SUMMARY;
    process.env.GITHUB_STEP_SUMMARY = summary;
    try {
      const result = await cli(["diff", a.dir, b.dir, "--fail-on-regression", "--json"]);
      expect(result.code).toBe(1);
      const lines = result.stderr.split("\n").slice(2);
      expect(lines).toEqual([
        expect.stringMatching(/^eval 1 .*regressed/),
        expect.stringMatching(/^eval 2 .*regressed/),
        "",
      ]);
      expect(await readFile(summary, "utf8")).toBe(
        `## skillgym diff\n\n- ❌ ${lines[0]}\n- ❌ ${lines[1]}\n\n`,
      );
    } finally {
      if (before === undefined) delete process.env.GITHUB_STEP_SUMMARY;
      else process.env.GITHUB_STEP_SUMMARY = before;
      await a.cleanup();
      await b.cleanup();
    }
  });
});

describe("skillgym grade", () => {
  it("skips graded runs, re-grades them with --force, and prints the totals, as text and JSON", async () => {
    const grade = (...flags: string[]) => cli(["grade", evals, "--simulate", ...flags]);
    const skipped = await grade();
    expect(skipped).toEqual({
      code: 0,
      stdout: "graded 0 runs, skipped 6 (already graded or errored), 0 failed; judge cost $0.0000\n",
      stderr: "",
    });
    const forced = await grade("--force", "--concurrency", "2");
    expect(forced.code).toBe(0);
    expect(forced.stdout).toBe(
      "graded 6 runs, skipped 0 (already graded or errored), 0 failed; judge cost $0.0000\n",
    );
    const lines = forced.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(6);
    // The sim judge's verdicts: every run's pass rate, the without_skill runs' below the with_skill ones.
    expect(
      lines.filter((l) => /^ {2}\/.*\/eval-[a-z-]+\/(with|without)_skill\/run-1: \d+%$/.test(l)),
    ).toHaveLength(6);
    expect(lines).toContain(`  ${join(evals, "eval-fixes-only", "with_skill", "run-1")}: 100%`);
    expect(lines).toContain(`  ${join(evals, "eval-fixes-only", "without_skill", "run-1")}: 50%`);
    const json = JSON.parse((await grade("--json")).stdout);
    expect(json).toEqual({ graded: 0, skipped: 6, errors: [], judgeCostUsd: 0 });
  });
});
