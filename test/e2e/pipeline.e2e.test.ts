import { access, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { Grading } from "../../src/contracts/grading.js";
import { TriggerResults } from "../../src/contracts/trigger-results.js";
import { createBudget } from "../../src/run/budget.js";
import { runEvals } from "../../src/run/index.js";
import { startSim } from "../../src/sim/index.js";
import { createDoubleAgent } from "../agent-double/index.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { readJson, skillMd, tempDir, writeTree } from "./helpers.js";
import { smallExample } from "./small-example.js";

const root = resolve(import.meta.dirname, "../..");
const _bin = join(root, "bin", "skillgym.js");

// The built CLI in this process (test/cli/cli-in-process.ts).
const skillgym = (args: string[]) => skillgymHereOnDouble(args);

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe("skillgym run, grade and bench end to end (the Claude Code test double against skillgym sim)", () => {
  it("runs the whole pipeline on an example offline, marked as simulated", async () => {
    const ws = join(dir, "ws");
    // Four of the example's 20 trigger queries (two should, two should not): the trigger stage runs on each.
    const skill = await smallExample(dir, "csv-summary", [0, 7, 10, 16]);
    const result = await skillgym([
      "run",
      skill,
      "--simulate",
      "--runs",
      "2",
      "--trigger-runs",
      "1",
      "--workspace",
      ws,
      "--min-pass-rate",
      "0.9",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      simulated: true,
      cost_usd: 0,
      gates: [{ name: "min-pass-rate", passed: true }],
    });
    const iteration = join(ws, "iteration-1");
    const benchmark = Benchmark.parse(await readJson(join(iteration, "benchmark.json")));
    expect(benchmark.metadata).toMatchObject({
      skill_name: "csv-summary",
      runs_per_configuration: 2,
      simulated: true,
    });
    expect(benchmark.runs).toHaveLength(12);
    expect(benchmark.run_summary.with_skill?.pass_rate.mean).toBe(1);
    expect(Number(benchmark.run_summary.delta?.pass_rate)).toBeGreaterThan(0.3);
    expect(benchmark.statistics?.delta_pass_rate.distinguishable).toBe(true);
    const grading = Grading.parse(
      await readJson(join(iteration, "eval-2", "with_skill", "run-1", "grading.json")),
    );
    expect(grading.expectations.every((x) => x.source === "check")).toBe(true);
    expect(grading.summary.pass_rate).toBe(1);
    const triggers = TriggerResults.parse(
      await readJson(join(iteration, "triggers", "trigger-results.json")),
    );
    expect(triggers.results).toHaveLength(4);
    const report = await readFile(join(iteration, "report.html"), "utf8");
    expect(report).toContain('"simulated":true');
    expect(report).not.toContain('"simulated":false');
    expect(result.stderr).toContain("SIMULATED");
  }, 300_000);

  it("exits 1 when a gate fails", async () => {
    // Four of the example's 20 trigger queries, one of which the simulated agent gets wrong.
    const result = await skillgym([
      "run",
      await smallExample(dir, "release-notes", [0, 1, 10, 12]),
      "--simulate",
      "--runs",
      "1",
      "--only",
      "basic",
      "--trigger-runs",
      "1",
      "--workspace",
      join(dir, "ws"),
      "--min-trigger-accuracy",
      "0.99",
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("gate min-trigger-accuracy: FAILED");
  }, 300_000);

  it("prints a plan and an estimate with --dry-run and starts nothing", async () => {
    const result = await skillgym([
      "run",
      "examples/release-notes",
      "--dry-run",
      "--simulate",
      "--workspace",
      join(dir, "ws"),
      "--json",
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ agentRuns: 18, triggerRuns: 60, judgeCalls: 12 });
    await expect(access(join(dir, "ws"))).rejects.toThrow();
  });

  it("re-grades an iteration without running the agent, checks included", async () => {
    await writeTree(dir, {
      "notes/SKILL.md": skillMd(
        "notes",
        "Writes meeting notes files. Use when the user asks for meeting notes.",
        "Write notes.md.",
      ),
      "notes/evals/evals.json": JSON.stringify({
        evals: [
          {
            id: 1,
            prompt: "Write meeting notes from agenda.txt",
            files: ["evals/files/agenda.txt"],
            expectations: ["The notes list every agenda item", "The notes name an owner for each action"],
            checks: [
              { type: "file_contains", path: "notes.md", pattern: "^- budget$", flags: "m" },
              { type: "file_unchanged", path: "evals/files/agenda.txt" },
              { type: "command", run: "node -e \"process.exit(require('fs').existsSync('notes.md')?0:1)\"" },
            ],
          },
        ],
      }),
      "notes/evals/files/agenda.txt": "budget\nhiring\n",
      "notes/evals/sim-script.json": JSON.stringify({
        rules: [
          {
            match: "meeting notes",
            steps: [{ write: { path: "notes.md", content: "# Notes\n- budget\n- hiring\n" } }],
          },
        ],
        judge: { verdicts: [{ match: "owner", passed: false, evidence: "No owner is named." }] },
      }),
    });
    const ev = await skillgym(["eval", join(dir, "notes"), "--simulate", "--baseline", "none"]);
    expect(ev.code).toBe(0);
    const run = join(dir, "notes-workspace", "iteration-1", "eval-1", "with_skill", "run-1");
    const first = Grading.parse(await readJson(join(run, "grading.json")));
    expect(first.expectations.map((x) => x.passed)).toEqual([true, false, true, true, true]);
    expect(first.summary).toMatchObject({ passed: 4, failed: 1, total: 5 });

    // The judge now passes everything: a forced re-grade rebuilds the workspace and runs the checks again.
    await writeFile(
      join(dir, "notes", "evals", "sim-script.json"),
      JSON.stringify({ rules: [], judge: { default: "pass" } }),
    );
    const iteration = join(dir, "notes-workspace", "iteration-1");
    const skipped = await skillgym(["grade", iteration, "--simulate", "--json"]);
    expect(JSON.parse(skipped.stdout)).toMatchObject({ graded: 0, skipped: 1 });
    const regraded = await skillgym([
      "grade",
      iteration,
      "--simulate",
      "--sim-script",
      join(dir, "notes", "evals", "sim-script.json"),
      "--force",
      "--json",
    ]);
    expect(regraded.code).toBe(0);
    expect(JSON.parse(regraded.stdout)).toMatchObject({ graded: 1, errors: [] });
    const second = Grading.parse(await readJson(join(run, "grading.json")));
    expect(second.summary).toMatchObject({ passed: 5, failed: 0 });
    expect(second.expectations[4]?.evidence).toContain("Exit code 0");
    expect(second.timing?.executor_duration_seconds).toBeGreaterThan(0);
    expect(second.execution_metrics?.files_created).toEqual(["notes.md"]);

    const bench = await skillgym(["bench", iteration, "--json"]);
    expect(bench.code).toBe(0);
    expect(Benchmark.parse(JSON.parse(bench.stdout)).run_summary.with_skill?.pass_rate.mean).toBe(1);
  }, 180_000);

  it("stops scheduling runs before --max-cost would be crossed", async () => {
    await writeTree(dir, {
      "card/SKILL.md": skillMd(
        "card",
        "Writes a card file. Use when the user asks for a card.",
        "Write card.txt.",
      ),
      "card/evals/evals.json": JSON.stringify({
        evals: [1, 2, 3, 4].map((id) => ({
          id,
          prompt: `Make card ${id}`,
          expectations: [],
          checks: [{ type: "file_exists", path: "card.txt" }],
        })),
      }),
    });
    // Not --simulate: Claude Code prices the simulator's tokens as a real model's, so the runs cost money on paper.
    const sim = await startSim({
      script: { rules: [{ steps: [{ write: { path: "card.txt", content: "card" } }] }] },
    });
    try {
      const budget = createBudget(0.5, 0.3);
      const summary = await runEvals({
        skillPath: join(dir, "card"),
        runs: 1,
        baseline: "none",
        concurrency: 1,
        timeoutSeconds: 60,
        budget,
        createAgent: () =>
          createDoubleAgent({
            env: { ...process.env, ANTHROPIC_BASE_URL: sim.url, ANTHROPIC_API_KEY: "sk-test" },
          }),
      });
      expect(summary.records.length).toBeGreaterThan(0);
      expect(summary.records.length).toBeLessThan(4);
      expect(budget.exhausted).toBe(true);
      expect(summary.records.every((r) => r.costUsd > 0)).toBe(true);
      expect((await readJson(join(summary.iterationDir, "iteration.json"))).status).toBe("interrupted");
    } finally {
      await sim.close();
    }
  }, 120_000);
});
