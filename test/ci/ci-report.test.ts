import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeCiReports } from "../../src/ci/index.js";
import { SkillgymError } from "../../src/errors.js";
import { iterationRecord, writeIteration } from "../bench/iteration-fixture.js";
import { triggers } from "./fixtures-text.js";

let root: string;
let iteration: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillgym-ci-report-"));
  iteration = join(root, "demo-workspace", "iteration-1");
});
afterEach(() => rm(root, { recursive: true, force: true }));

const gates = [
  { name: "pass-rate", passed: true, message: "1 >= 0.8" },
  { name: "delta", passed: false, message: "-0.5 < 0" },
];

async function writeTriggers(dir: string, threshold?: number): Promise<void> {
  await mkdir(join(dir, "triggers"), { recursive: true });
  await writeFile(join(dir, "triggers", "trigger-results.json"), JSON.stringify(triggers(threshold)), "utf8");
}

async function oneAgent(dir: string): Promise<void> {
  await writeIteration(dir, {
    record: iterationRecord({
      plan: { evals: [1], configurations: ["with_skill", "without_skill"], runs_per_configuration: 1 },
    }),
    evals: [{ id: 1, name: "tidy" }],
    runs: [
      { eval: 1, configuration: "with_skill", run: 1, results: { "keeps names": true }, seconds: 2 },
      { eval: 1, configuration: "without_skill", run: 1, results: { "keeps names": false }, seconds: 3 },
    ],
  });
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

describe("writing an iteration's CI reports", () => {
  it("writes the JUnit file into folders it creates, appends the summary, and returns the annotations", async () => {
    await oneAgent(iteration);
    await writeTriggers(iteration, 0.7);
    await writeFile(
      join(iteration, "benchmark.md"),
      "| eval | pass rate |\n|---|---|\n| tidy | 1.00 |\n",
      "utf8",
    );
    const junitFile = join(root, "reports", "ci", "junit.xml");
    const summaryFile = join(root, "summary.md");
    await writeFile(summaryFile, "earlier step\n", "utf8");
    const lines = await writeCiReports(iteration, {
      skillName: "demo",
      junitFile,
      stepSummaryFile: summaryFile,
      annotate: true,
      gates,
    });
    expect(lines).toEqual([
      "::error title=skillgym gate delta::-0.5 < 0",
      "::warning title=skillgym trigger query::should trigger: tidy | this%0Afile",
      "::warning title=skillgym trigger query::should not trigger: lint 100%25",
      "::warning title=skillgym trigger query::should not trigger: no rate",
    ]);
    const xml = await readFile(junitFile, "utf8");
    expect(xml).toContain(
      '<testsuite name="demo with_skill" tests="1" failures="0" errors="0" skipped="0" time="2.000">',
    );
    expect(xml).toContain('<testcase name="tidy run-1" classname="demo.without_skill" time="3.000">');
    expect(xml).toContain('<failure message="1 of 1 expectations failed" type="failure">');
    expect(xml).toContain('<testsuite name="demo triggers" tests="5" failures="3" errors="1"');
    expect(xml).toContain("threshold 0.7");
    const summary = await readFile(summaryFile, "utf8");
    expect(summary.startsWith("earlier step\n## skillgym: demo\n")).toBe(true);
    expect(summary).toContain(`Iteration: \`${iteration}\``);
    expect(summary).toContain("- ❌ gate delta: -0.5 < 0\n");
    expect(summary).toContain("| tidy | 1.00 |\n");
    expect(summary).toContain("### Triggers: 1/5 queries passed, accuracy 33.3%");
  });

  it("writes nothing and returns no lines when no report is asked for", async () => {
    await oneAgent(iteration);
    expect(await writeCiReports(iteration, { skillName: "demo", gates })).toEqual([]);
    expect(await writeCiReports(iteration, { skillName: "demo", annotate: false, gates })).toEqual([]);
  });

  it("writes each report on its own: only the JUnit file, only the summary, only the annotations", async () => {
    await oneAgent(iteration);
    const junitFile = join(root, "junit.xml");
    expect(await writeCiReports(iteration, { skillName: "demo", junitFile, gates })).toEqual([]);
    expect(await readFile(junitFile, "utf8")).toContain('<testsuite name="demo with_skill"');

    const summaryFile = join(root, "summary.md");
    expect(
      await writeCiReports(iteration, { skillName: "demo", stepSummaryFile: summaryFile, gates }),
    ).toEqual([]);
    expect(await readFile(summaryFile, "utf8")).toBe(
      `## skillgym: demo\n\nIteration: \`${iteration}\`\n\n- ✅ gate pass-rate: 1 >= 0.8\n- ❌ gate delta: -0.5 < 0\n\n`,
    );

    expect(await writeCiReports(iteration, { skillName: "demo", annotate: true, gates })).toEqual([
      "::error title=skillgym gate delta::-0.5 < 0",
    ]);
  });

  it("reports a trigger-only iteration, with the default threshold", async () => {
    await writeTriggers(iteration);
    const junitFile = join(root, "junit.xml");
    await writeCiReports(iteration, { skillName: "demo", junitFile, gates: [] });
    const xml = await readFile(junitFile, "utf8");
    expect(xml).not.toContain("with_skill");
    expect(xml).toContain('<testsuite name="demo triggers" tests="5"');
    expect(xml).toContain("threshold 0.5");
  });

  it("writes one suite per agent of an iteration that ran several, each with its own triggers", async () => {
    await writeFile(
      join(await mkdir(iteration, { recursive: true }).then(() => iteration), "iteration.json"),
      JSON.stringify({
        ...iterationRecord(),
        agents: ["claude", "codex", "gone"],
        request: {
          evals: [1],
          runs_per_configuration: 1,
          baseline: "without_skill",
          trigger_queries: 5,
          trigger_runs: 1,
        },
      }),
    );
    await oneAgent(join(iteration, "claude"));
    await writeTriggers(join(iteration, "claude"), 0.7);
    await oneAgent(join(iteration, "codex"));
    const junitFile = join(root, "junit.xml");
    await writeCiReports(iteration, { skillName: "demo", junitFile, gates: [] });
    const xml = await readFile(junitFile, "utf8");
    const suites = [...xml.matchAll(/<testsuite name="([^"]*)"/g)].map((m) => m[1]);
    expect(suites).toEqual([
      "demo claude with_skill",
      "demo claude without_skill",
      "demo claude triggers",
      "demo codex with_skill",
      "demo codex without_skill",
    ]);
    expect(xml).toContain('classname="demo.claude.triggers"');
  });

  it("names the file it cannot write, and writes no other", async () => {
    await oneAgent(iteration);
    await writeFile(join(root, "blocker"), "a file, not a folder", "utf8");
    const junitFile = join(root, "blocker", "junit.xml");
    const error = await writeCiReports(iteration, { skillName: "demo", junitFile, gates }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error).toMatchObject({ code: "WORKSPACE", file: junitFile });
    expect((error as SkillgymError).message).toMatch(
      new RegExp(`^cannot write ${junitFile}: E[A-Z]+: .*blocker`),
    );
    expect((error as SkillgymError).cause).toBeInstanceOf(Error);

    const summaryFile = join(root, "blocker", "summary.md");
    await expect(
      writeCiReports(iteration, { skillName: "demo", stepSummaryFile: summaryFile, gates }),
    ).rejects.toThrow(`cannot write ${summaryFile}`);
    expect(await exists(join(root, "summary.md"))).toBe(false);
  });
});
