import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { createJudge } from "../../src/judge/create.js";
import type { Judge } from "../../src/judge/judge.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { runTune, runTunes, type TuneOptions, tuneGroups } from "../../src/tune/index.js";
import type { TuneReporter } from "../../src/tune/reporter.js";
import { readJson, tempDir, writeTree } from "../e2e/helpers.js";
import { fakeAgent } from "./fake-agent.js";
import { fastRetry, skillMd } from "./tune-helpers.js";

// runTune in this process: an agent in this process (the eval runs write card.txt; the improver edits SKILL.md) and
// the sim judge, one sim for the file. (tune.e2e.test.ts drives the same loop with the Claude Code test double.)
const GOOD = "Writes greeting cards. Use when asked for a greeting card.";
const v0 = skillMd("greeter", GOOD, "Write card.txt for the guest.");
const v1 = skillMd("greeter", GOOD, "BETTER-STEPS: read the guest's name, then write card.txt.");
const card = { write: { "card.txt": "Hello, Ada!\n" } };
const improver = {
  write: { "greeter/SKILL.md": v1, "iteration-1-changes.md": "## Changes\n- Named the guest first\n" },
};
const script = SimScript.parse({
  judge: { rubric: { default: 60, when: [{ match: "BETTER-STEPS", score: 90 }] } },
});
const NOW = new Date("2026-01-15T10:30:00.000Z");

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "greeter/SKILL.md": v0,
    "greeter/evals/evals.json": JSON.stringify({
      evals: [
        {
          id: 1,
          prompt: "Please make a greeting card for Ada",
          expectations: [],
          checks: [{ type: "file_contains", path: "card.txt", pattern: "Ada" }],
        },
      ],
    }),
    "other/SKILL.md": skillMd("other", GOOD, "Other."),
    "other/evals/evals.json": JSON.stringify({
      evals: [
        {
          id: 1,
          prompt: "Another card",
          expectations: [],
          checks: [{ type: "file_contains", path: "card.txt", pattern: "Ada" }],
        },
      ],
    }),
  });
  sim = await startSim({ script });
});
afterAll(async () => {
  await sim.close();
  await cleanup();
});

function options(workspace: string, overrides: Partial<TuneOptions> = {}): TuneOptions {
  return {
    skillPaths: [join(dir, "greeter")],
    workspace: join(dir, workspace),
    runs: 1,
    concurrency: 1,
    timeoutSeconds: 60,
    retry: fastRetry,
    maxIterations: 2,
    threshold: 99,
    now: () => NOW,
    createAgent: async () => fakeAgent([card, improver, card], true).agent,
    createJudge: () => createJudge({ backend: "sim", simulatorUrl: sim.url }),
    ...overrides,
  };
}

function recorder() {
  const events: unknown[] = [];
  const reporter: TuneReporter = {
    onStart: (info) => events.push(["start", { ...info, state: info.state.status }]),
    onIterationStart: (info) => events.push(["iteration", info]),
    onPhase: (info) => events.push(["phase", info]),
    onEvaluated: (info) => events.push(["evaluated", info]),
    onImproved: (info) => events.push(["improved", info]),
    onError: (info) => events.push(["error", info]),
    onEnd: (info) => events.push(["end", info]),
  };
  return { events, reporter };
}

const sim90 = (n: number) => ({
  clarity: n,
  completeness: n,
  correctness: n,
  effectiveness: n,
  efficiency: n,
});
const SUGGESTION = "[high] Simulated suggestion (skillgym sim): state each step of the workflow explicitly.";

describe("runTune", () => {
  it("measures v0, keeps the improver's v1 that scores better, stops after the last iteration, and resumes to the same result", async () => {
    const { events, reporter } = recorder();
    const result = await runTune(options("ws", { reporter }));
    const tune = join(dir, "ws", "tune-20260115-103000");
    const at = NOW.toISOString();
    const execution = (round: number) => ({
      started_at: at,
      finished_at: at,
      iteration_dir: `iterations/iteration-${round}/execution/greeter/iteration-1`,
      iteration_dirs: { greeter: `iterations/iteration-${round}/execution/greeter/iteration-1` },
      runs: 1,
      errored_runs: 0,
      duration_seconds: 0,
      cost_usd: 0,
    });
    const evaluation = (score: number, rubric: number, weaknesses: string[]) => ({
      score,
      rubric_score: rubric,
      expectation_pass_rate: 1,
      dimensions: sim90(rubric),
      strengths: [`Simulated strength (skillgym sim, scored ${rubric}/100)`],
      weaknesses,
      suggestions: [SUGGESTION],
      cost_usd: 0,
      judge_model: "skillgym-sim",
      evaluator: "sim",
    });
    const estimate = {
      evalRuns: 2,
      improverRuns: 1,
      judgeCalls: 2,
      costUsd: 0,
      unitCosts: { agentRunUsd: 0, triggerRunUsd: 0, judgeCallUsd: 0 },
    };
    const diff = [
      "--- a/greeter/SKILL.md",
      "+++ b/greeter/SKILL.md",
      "@@ -3,4 +3,4 @@",
      ` description: ${GOOD}`,
      " ---",
      " ",
      "-Write card.txt for the guest.",
      "+BETTER-STEPS: read the guest's name, then write card.txt.",
      "",
    ].join("\n");
    const expected = {
      tuneDir: tune,
      state: {
        status: "completed",
        target_skills: ["greeter"],
        skill_paths: [join(dir, "greeter")],
        evals_paths: [join(dir, "greeter", "evals", "evals.json")],
        execution_mode: "single",
        preset: "standard",
        runs_per_eval: 1,
        current_iteration: 2,
        max_iterations: 2,
        quality_threshold: 99,
        latest_score: 95,
        best_score: 95,
        current_best: "v1",
        score_trend: [80, 95],
        converged: false,
        error_count: 0,
        max_errors: 3,
        consecutive_errors: 0,
        termination_reason: "max_iterations_reached",
        started_at: at,
        updated_at: at,
        iterations: [
          {
            round: 1,
            version: "v0",
            parent: null,
            status: "completed",
            skill_snapshot: "iterations/iteration-1/skill-snapshot",
            started_at: at,
            execution: execution(1),
            evaluation: evaluation(80, 60, ["Simulated weakness (skillgym sim)"]),
            improvement: {
              target_skills: ["greeter"],
              from_version: "v0",
              attempts: 1,
              cost_usd: 0,
              changes_file: "iterations/iteration-1/iteration-1-changes.md",
              summary: "Changes",
              rolled_back: false,
              next_candidate: { greeter: "iterations/iteration-1/improved/greeter" },
            },
            grading_result: "baseline",
            finished_at: at,
          },
          {
            round: 2,
            version: "v1",
            parent: "v0",
            status: "completed",
            skill_snapshot: "iterations/iteration-2/skill-snapshot",
            started_at: at,
            execution: execution(2),
            evaluation: evaluation(95, 90, []),
            improvement: null,
            grading_result: "won",
            finished_at: at,
          },
        ],
        simulated: true,
        evaluator: "sim",
        judge_model: "skillgym-sim",
      },
      resumed: false,
      cancelled: false,
      estimate,
      reportFile: join(tune, "final-report.md"),
      best: {
        version: "v1",
        score: 95,
        dirs: { greeter: join(tune, "iterations/iteration-2/skill-snapshot/greeter") },
      },
      skillPaths: { greeter: join(dir, "greeter") },
      originalDirs: { greeter: join(tune, "original", "greeter") },
      diffs: [{ name: "greeter", diff }],
      costUsd: 0,
      simulated: true,
    };
    expect(result).toEqual(expected);
    const phase = (round: number, name: string) => ["phase", { round, phase: name, skill: "greeter" }];
    expect(events).toEqual([
      ["start", { tuneDir: tune, resumed: false, state: "running", estimate, simulated: true }],
      ["iteration", { round: 1, maxIterations: 2, version: "v0" }],
      phase(1, "execute"),
      phase(1, "evaluate"),
      ["evaluated", { round: 1, version: "v0", score: 80, passRate: 1, result: "baseline" }],
      phase(1, "improve"),
      ["improved", { round: 1, targets: ["greeter"], rolledBack: false }],
      ["iteration", { round: 2, maxIterations: 2, version: "v1" }],
      phase(2, "execute"),
      phase(2, "evaluate"),
      ["evaluated", { round: 2, version: "v1", score: 95, passRate: 1, result: "won" }],
      ["end", { reason: "max_iterations_reached", bestVersion: "v1", bestScore: 95 }],
    ]);

    // The files the tune wrote.
    expect(await readJson(join(tune, "iteration-state.json"))).toEqual(expected.state);
    expect(await readJson(join(tune, "history.json"))).toEqual({
      started_at: at,
      skill_name: "greeter",
      current_best: "v1",
      iterations: [
        {
          version: "v0",
          parent: null,
          expectation_pass_rate: 1,
          grading_result: "baseline",
          is_current_best: false,
          score: 80,
        },
        {
          version: "v1",
          parent: "v0",
          expectation_pass_rate: 1,
          grading_result: "won",
          is_current_best: true,
          score: 95,
        },
      ],
    });
    const { cost_usd: _, ...evaluated } = evaluation(95, 90, []);
    expect(await readJson(join(tune, "iterations/iteration-2/evaluation.json"))).toEqual({
      ...evaluated,
      cost_usd: 0,
    });
    expect(await readFile(join(tune, "iterations/iteration-1/iteration-1-changes.md"), "utf8")).toBe(
      "## Changes\n- Named the guest first\n",
    );
    expect(await readFile(join(tune, "iterations/iteration-1/improved/greeter/SKILL.md"), "utf8")).toBe(v1);
    expect(await readFile(join(tune, "iterations/iteration-2/skill-snapshot/greeter/SKILL.md"), "utf8")).toBe(
      v1,
    );
    expect(await readFile(join(tune, "iterations/iteration-1/skill-snapshot/greeter/SKILL.md"), "utf8")).toBe(
      v0,
    );
    // The measured copy keeps the original's evals/ beside it.
    expect(await readdir(join(tune, "iterations/iteration-2/skill-snapshot/greeter/evals"))).toEqual([
      "evals.json",
    ]);
    expect(await readdir(join(tune, "iterations/iteration-1/improve"))).toEqual(["attempt-1.md"]);
    const improver = await readFile(join(tune, "iterations/iteration-1/improve/attempt-1.md"), "utf8");
    expect(improver).toContain(
      "skillgym tune iteration 1: improve the Agent Skill in ./greeter/ (version v0).",
    );
    expect(improver).toContain(`Suggestions, most important first:\n- ${SUGGESTION}`);
    const report = await readFile(result.reportFile, "utf8");
    expect(report).toContain("- Status: completed: the last iteration was run\n");
    expect(report).toContain("| 2 | v1 | 95 | 100% | 90 | 90 | 90 | 90 | 90 | won |\n");
    expect(report).toContain(
      "### Iteration 1: edited greeter from v0 → v1\n\n## Changes\n- Named the guest first\n\nResult: v1 won (score 95).",
    );
    expect(report).toContain(
      `- \`${join(tune, "iterations/iteration-2/skill-snapshot/greeter")}\` → \`${join(dir, "greeter")}\``,
    );
    // The user's skill is untouched.
    expect(await readFile(join(dir, "greeter", "SKILL.md"), "utf8")).toBe(v0);

    // Resuming a finished tune runs nothing and makes no agent: the same result, resumed.
    const made: string[] = [];
    const again = recorder();
    const resumed = await runTune(
      options("ws", {
        skillPaths: [],
        resumeDir: tune,
        reporter: again.reporter,
        createAgent: async () => {
          made.push("agent");
          throw new Error("no agent for a finished tune");
        },
      }),
    );
    const { estimate: _e, ...withoutEstimate } = expected;
    expect(resumed).toEqual({ ...withoutEstimate, resumed: true });
    expect(made).toEqual([]);
    expect(again.events).toEqual([
      ["start", { tuneDir: tune, resumed: true, state: "completed", simulated: true }],
      ["end", { reason: "max_iterations_reached", bestVersion: "v1", bestScore: 95 }],
    ]);
  });

  it("a tune cancelled before its first iteration: the state stays running, the report says how to resume", async () => {
    const controller = new AbortController();
    controller.abort();
    const ends: string[] = [];
    const results = await runTunes({
      ...options("cancelled", { signal: controller.signal }),
      skillPaths: [join(dir, "greeter"), join(dir, "other")],
      mode: "single",
      onTuneEnd: (r) => {
        ends.push(r.tuneDir);
      },
    });
    expect(results).toHaveLength(1);
    const [result] = results;
    const tune = join(dir, "cancelled", "tune-20260115-103000");
    expect(ends).toEqual([tune]);
    expect(result).toMatchObject({
      tuneDir: tune,
      resumed: false,
      cancelled: true,
      best: { version: null, score: null, dirs: { greeter: join(tune, "original", "greeter") } },
      diffs: [{ name: "greeter", diff: "" }],
      costUsd: 0,
      simulated: true,
    });
    expect(result?.state).toMatchObject({ status: "running", termination_reason: null, iterations: [] });
    const report = await readFile(join(tune, "final-report.md"), "utf8");
    expect(report).toContain(`- Status: running (continue with \`skillgym tune --resume ${tune}\`)`);
    expect(report).toContain("- Best version: none measured");
  });
});

describe("runTune interrupted", () => {
  it("a tune cancelled during a run stops there, and resuming it measures that version in place", async () => {
    const controller = new AbortController();
    const first = await runTune(
      options("interrupted", {
        signal: controller.signal,
        createAgent: async () => fakeAgent([{ ...card, onStart: () => controller.abort() }], true).agent,
      }),
    );
    expect(first).toMatchObject({ cancelled: true, resumed: false, best: { version: null } });
    expect(first.state).toMatchObject({ status: "running", current_iteration: 1, termination_reason: null });
    expect(first.state.iterations.map((it) => it.status)).toEqual(["executing"]);
    const saved = await readJson(join(first.tuneDir, "iteration-state.json"));
    expect(saved).toMatchObject({ status: "running", current_iteration: 1 });

    const { events, reporter } = recorder();
    const resumed = await runTune(
      options("interrupted", {
        skillPaths: [],
        resumeDir: first.tuneDir,
        maxIterations: 5,
        reporter,
        createAgent: async () => fakeAgent([card, improver, card], true).agent,
      }),
    );
    expect(resumed).toMatchObject({ cancelled: false, resumed: true, best: { version: "v1", score: 95 } });
    expect(resumed).not.toHaveProperty("estimate");
    // The resumed tune keeps its own settings (2 iterations), not the new flags.
    expect(resumed.state).toMatchObject({
      status: "completed",
      termination_reason: "max_iterations_reached",
      score_trend: [80, 95],
      max_iterations: 2,
    });
    expect(events[0]).toEqual([
      "start",
      { tuneDir: first.tuneDir, resumed: true, state: "running", simulated: true },
    ]);
    expect(events[1]).toEqual(["phase", { round: 1, phase: "execute", skill: "greeter" }]);
  });
});

describe("runTune with a spending limit (an agent and a judge in this process, priced like a real model)", () => {
  const judge: Judge = {
    backend: "anthropic",
    model: "j",
    simulated: false,
    complete: async () => ({
      text: JSON.stringify({ dimensions: sim90(60) }),
      model: "j-1",
      inputTokens: 1,
      outputTokens: 1,
      costUsd: 0.01,
      durationMs: 1,
    }),
  };
  const priced = (workspace: string, maxCostUsd: number, runCost: number) => {
    const fake = fakeAgent([{ write: { "card.txt": "Hello, Ada!" }, costUsd: runCost }]);
    return {
      requests: fake.requests,
      options: options(workspace, {
        maxCostUsd,
        createAgent: async () => fake.agent,
        createJudge: async () => judge,
      }),
    };
  };

  it("no run fits: the first iteration fails and the tune ends with budget_exhausted", async () => {
    const { options: opts, requests } = priced("budget-none", 0.1, 0.25);
    const result = await runTune(opts);
    expect(requests).toEqual([]);
    expect(result.estimate).toEqual({
      evalRuns: 2,
      improverRuns: 1,
      judgeCalls: 2,
      costUsd: 3 * 0.3 + 2 * 0.05,
      unitCosts: { agentRunUsd: 0.3, triggerRunUsd: 0.05, judgeCallUsd: 0.05 },
    });
    expect(result).toMatchObject({ cancelled: false, simulated: false, costUsd: 0, best: { version: null } });
    expect(result.state).toMatchObject({
      status: "completed",
      termination_reason: "budget_exhausted",
      converged: false,
      simulated: false,
    });
    expect(result.state.iterations).toHaveLength(1);
    expect(result.state.iterations[0]).toMatchObject({
      status: "failed",
      error: "stopped: --max-cost reached before every run was made",
      execution: null,
    });
    expect(await readFile(result.reportFile, "utf8")).toContain(
      "- Status: completed: --max-cost was reached\n",
    );
  });

  it("the improver does not fit: the measured version stands, rolled back without an error", async () => {
    const { options: opts, requests } = priced("budget-improve", 0.5, 0.25);
    const result = await runTune(opts);
    expect(requests).toHaveLength(1);
    const [first] = result.state.iterations;
    expect(first).toMatchObject({
      status: "completed",
      grading_result: "baseline",
      evaluation: { score: 80, cost_usd: 0.01, judge_model: "j-1", evaluator: "anthropic" },
      improvement: { rolled_back: true, attempts: 0, error: "stopped: --max-cost reached", cost_usd: 0 },
    });
    expect(first).not.toHaveProperty("error");
    expect(result.state).toMatchObject({ termination_reason: "budget_exhausted", error_count: 0 });
    // The run and the evaluator: 0.25 + 0.01.
    expect(result.costUsd).toBe(0.26);
    expect(result.best).toMatchObject({ version: "v0", score: 80 });
  });
});

describe("runTune's cost", () => {
  it("counts every phase's cost: the runs, the evaluator and the improver", async () => {
    const judge: Judge = {
      backend: "anthropic",
      model: "j",
      simulated: false,
      complete: async () => ({
        text: JSON.stringify({ dimensions: sim90(60) }),
        model: "j-1",
        inputTokens: 1,
        outputTokens: 1,
        costUsd: 0.01,
        durationMs: 1,
      }),
    };
    const fake = fakeAgent([
      { write: { "card.txt": "Hello, Ada!" }, costUsd: 0.25 },
      { ...improver, costUsd: 0.5 },
      { write: { "card.txt": "Hello, Ada!" }, costUsd: 0.25 },
    ]);
    const result = await runTune(
      options("priced-all", {
        maxCostUsd: 10,
        createAgent: async () => fake.agent,
        createJudge: async () => judge,
      }),
    );
    // Two rounds of a run (0.25) and an evaluation (0.01), and one edit (0.5) between them.
    expect(result.state.iterations.map((it) => it.improvement?.cost_usd)).toEqual([0.5, undefined]);
    expect(result.costUsd).toBeCloseTo(2 * (0.25 + 0.01) + 0.5, 10);
  });
});

describe("runTune resumed", () => {
  // The agent of a running tune is made as it resumes; here it must run nothing.
  const idle = fakeAgent([], true);
  const noAgent = async () => idle.agent;
  async function finishedTune(workspace: string) {
    const first = await runTune(options(workspace));
    expect(first.state.status).toBe("completed");
    const file = join(first.tuneDir, "iteration-state.json");
    const state = await readJson(file);
    return {
      tune: first.tuneDir,
      rewrite: (fields: Record<string, unknown>) =>
        writeFile(file, JSON.stringify({ ...state, status: "running", termination_reason: null, ...fields })),
    };
  }

  it("ends at once, converged, when the scores it had gained no more than 2 points", async () => {
    const { tune, rewrite } = await finishedTune("resume-converged");
    await rewrite({ max_iterations: 5, latest_score: 52, score_trend: [50, 51, 52] });
    const resumed = await runTune(options("x", { skillPaths: [], resumeDir: tune, createAgent: noAgent }));
    expect(resumed.state).toMatchObject({
      status: "completed",
      termination_reason: "convergence_detected",
      converged: true,
    });
    expect(resumed.state.iterations).toHaveLength(2);
    expect(idle.requests).toEqual([]);
  });

  it("after a failed last iteration, stops when no iteration is left", async () => {
    const { tune, rewrite } = await finishedTune("resume-failed");
    const state = await readJson(join(tune, "iteration-state.json"));
    const iterations = state.iterations as Record<string, unknown>[];
    await rewrite({ iterations: [...iterations.slice(0, -1), { ...iterations.at(-1), status: "failed" }] });
    const resumed = await runTune(options("x", { skillPaths: [], resumeDir: tune, createAgent: noAgent }));
    expect(resumed.state).toMatchObject({
      status: "completed",
      termination_reason: "max_iterations_reached",
    });
    expect(resumed.state.iterations.at(-1)?.status).toBe("failed");
    expect(idle.requests).toEqual([]);
  });

  it("a state from before simulated runs were recorded, its edit notes gone: not simulated, the report without notes", async () => {
    const { tune, rewrite } = await finishedTune("resume-older");
    const state = await readJson(join(tune, "iteration-state.json"));
    const iterations = state.iterations as { improvement?: { changes_file?: string } }[];
    const notes = iterations[0]?.improvement?.changes_file as string;
    await rm(join(tune, notes));
    await rewrite({ simulated: undefined });
    const { events, reporter } = recorder();
    const resumed = await runTune(
      options("x", { skillPaths: [], resumeDir: tune, createAgent: noAgent, reporter }),
    );
    expect(resumed.simulated).toBe(false);
    expect(events[0]).toMatchObject(["start", { resumed: true, simulated: false }]);
    const report = await readFile(resumed.reportFile, "utf8");
    expect(report).toMatch(/### Iteration 1: edited greeter from v0 → v1\n\nResult: /);
  });
});

describe("runTune cancelled by its agent", () => {
  it("a run the agent reports cancelled stops the tune, still running, to be resumed", async () => {
    const fake = fakeAgent([{ outcome: "cancelled" }], true);
    const result = await runTune(options("agent-cancelled", { createAgent: async () => fake.agent }));
    expect(result.cancelled).toBe(true);
    expect(result.state.status).toBe("running");
    expect(fake.requests).toHaveLength(1);
  });
});

describe("runTunes", () => {
  it("single mode tunes each skill on its own, one after the other", async () => {
    const ends: string[] = [];
    const results = await runTunes({
      ...options("two", { maxIterations: 1 }),
      skillPaths: [join(dir, "greeter"), join(dir, "other")],
      mode: "single",
      onTuneEnd: (r) => {
        ends.push(r.state.target_skills?.join(",") ?? "");
      },
    });
    expect(ends).toEqual(["greeter", "other"]);
    expect(results.map((r) => [r.state.target_skills, r.state.termination_reason, r.best.score])).toEqual([
      [["greeter"], "max_iterations_reached", 80],
      [["other"], "max_iterations_reached", 80],
    ]);
    expect(results[1]?.tuneDir).toBe(join(dir, "two", "tune-20260115-103000-2"));
  });
});

describe("tuneGroups", () => {
  it("one tune for a chain or a resume; one per skill in single mode", () => {
    expect(tuneGroups(["a", "b"], "chain", false)).toEqual([["a", "b"]]);
    expect(tuneGroups(["a", "b"], "single", true)).toEqual([["a", "b"]]);
    expect(tuneGroups(["a", "b"], "single", false)).toEqual([["a"], ["b"]]);
  });
});
