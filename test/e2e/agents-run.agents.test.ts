import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { EvalMetadata } from "../../src/contracts/evals.js";
import { Grading } from "../../src/contracts/grading.js";
import { AgentMatrix, AgentsIterationRecord } from "../../src/contracts/matrix.js";
import { IterationRecord } from "../../src/contracts/run-record.js";
import { TriggerResults } from "../../src/contracts/trigger-results.js";
import { bin, root, skillgym } from "../cli/cli-process.js";
import { readJson, tempDir } from "./helpers.js";
import { smallExample } from "./small-example.js";

/** The iteration folders of a workspace (the result store sits beside them). */
async function iterationsIn(workspace: string): Promise<string[]> {
  return (await readdir(workspace)).filter((name) => name.startsWith("iteration-"));
}

const agents = ["claude-code", "codex", "gemini"] as const;
// release-notes with 4 of its 20 trigger queries: two that should trigger, a near miss the script makes the model take
// and one it leaves. The miss fails the trigger gate as the full set's 3 misses do, at 10 runs an agent instead of 26.
const queries = [0, 1, 10, 12];
let ws: Awaited<ReturnType<typeof tempDir>>;
let skillDir: Awaited<ReturnType<typeof tempDir>>;
let run: ReturnType<typeof skillgym>;
const iteration = () => join(ws.dir, "iteration-1");

// What skill-creator's aggregate_benchmark.py reads: <dir>/eval-*/<configuration>/run-*/grading.json, with
// eval_metadata.json's integer eval_id; the mean of summary.pass_rate per configuration.
async function creatorMeans(dir: string): Promise<Record<string, number>> {
  const sums: Record<string, number[]> = {};
  const evalFolders = (await readdir(dir)).filter((name) => name.startsWith("eval-"));
  expect(evalFolders).toHaveLength(3);
  for (const folder of evalFolders) {
    const metadata = EvalMetadata.parse(await readJson(join(dir, folder, "eval_metadata.json")));
    expect(Number.isInteger(metadata.eval_id)).toBe(true);
    for (const configuration of await readdir(join(dir, folder), { withFileTypes: true })) {
      if (!configuration.isDirectory()) continue;
      for (const runFolder of await readdir(join(dir, folder, configuration.name))) {
        if (!runFolder.startsWith("run-")) continue;
        const grading = Grading.parse(
          await readJson(join(dir, folder, configuration.name, runFolder, "grading.json")),
        );
        sums[configuration.name] = [...(sums[configuration.name] ?? []), grading.summary.pass_rate];
      }
    }
  }
  return Object.fromEntries(
    Object.entries(sums).map(([c, xs]) => [c, xs.reduce((a, b) => a + b, 0) / xs.length]),
  );
}

const baselineRate = (2 / 12 + 3 / 6 + 1 / 5) / 3;

describe("skillgym run --agent claude-code,codex,gemini --simulate (real binaries against one sim)", () => {
  // One cross-agent run of the release-notes example: the three real agent binaries against one skillgym sim.
  beforeAll(async () => {
    ws = await tempDir();
    skillDir = await tempDir();
    run = skillgym([
      "run",
      await smallExample(skillDir.dir, "release-notes", queries),
      "--agent",
      agents.join(","),
      "--simulate",
      "--runs",
      "1",
      "--trigger-runs",
      "1",
      "--workspace",
      ws.dir,
      "--min-pass-rate",
      "0.9",
      "--min-trigger-accuracy",
      "0.9",
    ]);
  }, 400_000);
  afterAll(async () => {
    await ws?.cleanup();
    await skillDir?.cleanup();
  });

  it("runs the suite once per agent into one iteration and prints one matrix; the gates apply to each agent", async () => {
    // The trigger gate fails for every agent (the script makes 1 of the 4 queries miss): exit 1, each agent named.
    expect(run.code, run.stderr).toBe(1);
    expect(await iterationsIn(ws.dir)).toEqual(["iteration-1"]);
    for (const agent of agents) {
      expect(run.stderr).toContain(`== ${agent} (agent ${agents.indexOf(agent) + 1} of 3) ==`);
      expect(run.stdout).toMatch(new RegExp(`gate min-pass-rate \\[${agent}\\]: passed \\(${agent}: `));
      expect(run.stdout).toMatch(
        new RegExp(
          `gate min-trigger-accuracy \\[${agent}\\]: FAILED \\(${agent}: trigger accuracy 75\\.0% < 90\\.0%`,
        ),
      );
    }
    expect(run.stdout).toContain("SIMULATED");
    const table = run.stdout.split("\n").filter((l) => /^ {2}(claude-code|codex|gemini) /.test(l));
    expect(table).toHaveLength(3);
    for (const line of table) expect(line).toMatch(/ 100% +29% \(without_skill\) +\+0\.71 \[/);
  });

  it("writes matrix.json with the rates the sim script dictates, the same for every agent", async () => {
    const matrix = AgentMatrix.parse(await readJson(join(iteration(), "matrix.json")));
    expect(matrix).toMatchObject({ skill_name: "release-notes", simulated: true });
    expect(matrix.agents.map((a) => [a.agent, a.dir, a.status])).toEqual(
      agents.map((a) => [a, a, "complete"]),
    );
    for (const row of matrix.agents) {
      // The script: every expectation passes with the skill; without it 2 of 12, 3 of 6 and 1 of 5 (the mean of
      // the three evals' rates); 2 of 3 predicted triggers are right, every should-trigger query triggers.
      expect(row).toMatchObject({
        with_skill_pass_rate: 1,
        baseline_configuration: "without_skill",
        graded_runs: 6,
        errored_runs: 0,
        cost_usd: 0,
      });
      expect(row.baseline_pass_rate).toBeCloseTo(baselineRate, 3);
      expect(row.delta_pass_rate?.estimate).toBeCloseTo(1 - baselineRate, 3);
      expect(row.delta_pass_rate?.ci_low).toBeLessThanOrEqual(row.delta_pass_rate?.estimate ?? -1);
      expect(row.triggers).toMatchObject({ recall: 1, accuracy: 0.75, passed: 3, total: 4 });
      expect(row.triggers?.precision).toBeCloseTo(2 / 3, 5);
      expect(row.wall_seconds).toBeGreaterThan(0);
      expect(row.version).toMatch(/^\d+\.\d+\.\d+/);
      // The row is what the agent's own folder says.
      const own = Benchmark.parse(await readJson(join(iteration(), row.agent, "benchmark.json")));
      expect(own.run_summary.with_skill?.pass_rate.mean).toBe(row.with_skill_pass_rate);
      expect(own.statistics?.delta_pass_rate).toEqual(row.delta_pass_rate);
      const triggers = TriggerResults.parse(
        await readJson(join(iteration(), row.agent, "triggers", "trigger-results.json")),
      );
      expect(triggers.summary.accuracy).toBe(row.triggers?.accuracy);
    }
  });

  it("lays the iteration out as a root record, a benchmark.md with the matrix, and an ordinary iteration per agent", async () => {
    const rootRecord = await readJson(join(iteration(), "iteration.json"));
    expect(AgentsIterationRecord.parse(rootRecord)).toMatchObject({
      agents: [...agents],
      status: "complete",
    });
    // Tools that read one agent's iteration.json never take the root for one.
    expect(IterationRecord.safeParse(rootRecord).success).toBe(false);
    const markdown = await readFile(join(iteration(), "benchmark.md"), "utf8");
    expect(markdown).toContain("# Agents — release-notes");
    expect(markdown).toContain("| Agent | With skill | Baseline | Delta [95% CI] |");
    for (const agent of agents) {
      expect(markdown).toMatch(
        new RegExp(`\\| ${agent} [\\d.]+ \\| 100% \\| 29% \\(without_skill\\) \\| \\+0\\.71 \\[`),
      );
      expect(markdown).toContain(`- [${agent}](${agent}/benchmark.md)`);
      const own = IterationRecord.parse(await readJson(join(iteration(), agent, "iteration.json")));
      expect(own).toMatchObject({ status: "complete", agent: { name: agent }, simulated: true });
      expect((await readdir(join(iteration(), agent))).sort()).toEqual(
        [
          "benchmark.json",
          "benchmark.md",
          "eval-basic",
          "eval-fixes-only",
          "eval-version-from-package",
          "iteration.json",
          "report.html",
          "triggers",
        ].sort(),
      );
    }
    expect((await readdir(iteration())).sort()).toEqual(
      [...agents, "benchmark.md", "iteration.json", "matrix.json", "report.html"].sort(),
    );
  });

  it("leaves each agent's folder readable by skill-creator's aggregator, our bench and our viewer", async () => {
    for (const agent of agents) {
      const dir = join(iteration(), agent);
      const written = Benchmark.parse(await readJson(join(dir, "benchmark.json")));
      const means = await creatorMeans(dir);
      expect(means.with_skill).toBeCloseTo(written.run_summary.with_skill?.pass_rate.mean ?? -1, 5);
      expect(means.without_skill).toBeCloseTo(written.run_summary.without_skill?.pass_rate.mean ?? -1, 5);

      const bench = skillgym(["bench", dir, "--json"]);
      expect(bench.code, bench.stderr).toBe(0);
      const again = Benchmark.parse(await readJson(join(dir, "benchmark.json")));
      expect(again.run_summary).toEqual(written.run_summary);

      const page = join(ws.dir, `${agent}.html`);
      const view = skillgym(["view", dir, "--static", page]);
      expect(view.code, view.stderr).toBe(0);
      const html = await readFile(page, "utf8");
      expect(html).toContain('"eval_dir":"eval-basic"');
    }
  });

  it("refuses the iteration root in bench, naming the agents' folders", async () => {
    const bench = skillgym(["bench", iteration()]);
    expect(bench.code).toBe(2);
    expect(bench.stderr).toContain("ran several agents (claude-code, codex, gemini)");
    expect(bench.stderr).toContain(join(iteration(), "codex"));
  });
});

describe("an interrupted cross-agent run", () => {
  it("resumes in the same iteration, keeping what the first agent finished", async () => {
    const dir = await tempDir();
    try {
      // One trigger query: what is kept across the interruption is the first agent's finished runs, whatever their count.
      const skill = await smallExample(dir.dir, "release-notes", [0]);
      const workspace = join(dir.dir, "ws");
      const args = [
        bin,
        "run",
        skill,
        "--agent",
        "claude-code,codex",
        "--simulate",
        "--only",
        "basic",
        "--runs",
        "1",
        "--trigger-runs",
        "1",
        "--workspace",
        workspace,
      ];
      // Ctrl-C as soon as the second agent starts.
      const first = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      let interrupted = false;
      first.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (!interrupted && stderr.includes("== codex (agent 2 of 2) ==")) {
          interrupted = true;
          first.kill("SIGINT");
        }
      });
      const code = await new Promise<number | null>((resolve) => first.on("close", resolve));
      expect(code, stderr).toBe(130);
      const iterationDir = join(workspace, "iteration-1");
      expect(AgentsIterationRecord.parse(await readJson(join(iterationDir, "iteration.json"))).status).toBe(
        "interrupted",
      );
      const claudeRun = join(iterationDir, "claude-code", "eval-basic", "with_skill", "run-1", "timing.json");
      const kept = await readFile(claudeRun, "utf8");
      const stopped = AgentMatrix.parse(await readJson(join(iterationDir, "matrix.json")));
      expect(stopped.agents.map((a) => [a.agent, a.status])).toEqual([
        ["claude-code", "complete"],
        ["codex", "interrupted"],
      ]);

      const second = skillgym(args.slice(1));
      expect(second.code, second.stderr).toBe(0);
      expect(await iterationsIn(workspace)).toEqual(["iteration-1"]);
      expect(await readFile(claudeRun, "utf8")).toBe(kept);
      const matrix = AgentMatrix.parse(await readJson(join(iterationDir, "matrix.json")));
      expect(matrix.agents.map((a) => [a.agent, a.status, a.with_skill_pass_rate])).toEqual([
        ["claude-code", "complete", 1],
        ["codex", "complete", 1],
      ]);
      expect(AgentsIterationRecord.parse(await readJson(join(iterationDir, "iteration.json"))).status).toBe(
        "complete",
      );
    } finally {
      await dir.cleanup();
    }
  }, 300_000);
});
