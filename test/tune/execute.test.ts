import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ExpectationGrader } from "../../src/grade/index.js";
import { createBudget } from "../../src/run/budget.js";
import { stageChainInputs } from "../../src/tune/chain-inputs.js";
import { createContext } from "../../src/tune/context.js";
import { executeSkill } from "../../src/tune/execute-skill.js";
import type { TuneOptions } from "../../src/tune/options.js";
import { executePhase } from "../../src/tune/phase-execute.js";
import type { TuneReporter } from "../../src/tune/reporter.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { type FakeRun, fakeAgent } from "./fake-agent.js";
import { skillMd } from "./tune-helpers.js";
import { iteration, tuneState } from "./tune-states.js";

// executeSkill and the execute phase with runEvals for real and an agent in this process (no judge: checks only).
const NOW = new Date("2026-01-15T11:00:00.000Z");
const suite = (prompt: string, file: string) =>
  JSON.stringify({
    evals: [
      { id: 1, prompt, expectations: [], checks: [{ type: "file_contains", path: file, pattern: "OWL" }] },
    ],
  });

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "greeter/SKILL.md": skillMd("greeter", "Writes cards.", "Write card.txt."),
    "greeter/evals/evals.json": suite("card for Ada", "card.txt"),
  });
});
afterEach(() => cleanup());

const noGrader = async (): Promise<ExpectationGrader> => {
  throw new Error("no expectation to grade");
};

function execute(runs: FakeRun[], extra: Partial<Parameters<typeof executeSkill>[0]> = {}) {
  const fake = fakeAgent(runs);
  const result = executeSkill({
    skillDir: join(dir, "greeter"),
    evalsPath: join(dir, "greeter", "evals", "evals.json"),
    workspace: join(dir, "ws"),
    runs: 1,
    concurrency: 1,
    timeoutSeconds: 30,
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    createAgent: async () => fake.agent,
    createGrader: noGrader,
    ...extra,
  });
  return { result, requests: fake.requests };
}

describe("executeSkill", () => {
  it("runs the suite with the skill only, grades it and measures it, with what the runs cost", async () => {
    const { result, requests } = execute([{ write: { "card.txt": "OWL card" }, costUsd: 0.25 }]);
    const iterationDir = join(dir, "ws", "iteration-1");
    expect(await result).toEqual({
      status: "done",
      iterationDir,
      measured: {
        passRate: 1,
        runs: 1,
        graded: 1,
        errored: 0,
        problems: [],
        evals: [
          {
            name: "eval-1",
            prompt: "card for Ada",
            passRate: 1,
            failed: [],
            outputsDir: join(iterationDir, "eval-1", "with_skill", "run-1", "outputs"),
          },
        ],
      },
      costUsd: 0.25,
      attempts: 1,
    });
    expect(requests).toHaveLength(1);
    expect(await readdir(join(iterationDir, "eval-1"))).not.toContain("without_skill");
  });

  it("runs the suite once more from scratch when no run was graded, then gives up naming why", async () => {
    const { result, requests } = execute([{ outcome: "crash", message: "exit 3", costUsd: 0.5 }]);
    expect(await result).toEqual({
      status: "failed",
      iterationDir: join(dir, "ws", "iteration-1"),
      error: expect.stringMatching(/^no run was graded \(eval-1 run-1: crash: .*exit 3/),
      costUsd: 1,
      attempts: 2,
    });
    expect(requests).toHaveLength(2);
  });

  it("a second attempt that is graded is the result", async () => {
    const { result, requests } = execute([
      { outcome: "crash", message: "exit 3" },
      { write: { "card.txt": "no" } },
    ]);
    expect(await result).toMatchObject({ status: "done", attempts: 2, measured: { passRate: 0, graded: 1 } });
    expect(requests).toHaveLength(2);
    // The second attempt started from scratch: nothing of the first is left in the iteration.
    const run = join(dir, "ws", "iteration-1", "eval-1", "with_skill", "run-1");
    expect((await readdir(join(run, "outputs"))).sort()).toEqual(["card.txt", "metrics.json"]);
  });

  it("stops when cancelled, and when the spending limit allows no run", async () => {
    const controller = new AbortController();
    const cancelled = execute([{ write: { "card.txt": "OWL" }, onStart: () => controller.abort() }], {
      signal: controller.signal,
    });
    expect(await cancelled.result).toMatchObject({ status: "cancelled" });
    const budget = createBudget(0.1, 1);
    const spent = execute([{ write: { "card.txt": "OWL" } }], { budget });
    expect(await spent.result).toEqual({ status: "budget", costUsd: 0 });
    expect(spent.requests).toEqual([]);
  });
});

function recorder() {
  const events: unknown[] = [];
  const reporter: TuneReporter = {
    onPhase: (info) => events.push(["phase", info]),
    onError: (info) => events.push(["error", info]),
  };
  return { events, reporter };
}

async function chainSetup(runs: FakeRun[], overrides: Partial<TuneOptions> = {}) {
  const tune = join(dir, "ws", "tune-1");
  await writeTree(tune, {
    "iterations/iteration-1/skill-snapshot/outliner/SKILL.md": skillMd("outliner", "Outlines.", "Outline."),
    "iterations/iteration-1/skill-snapshot/drafter/SKILL.md": skillMd("drafter", "Drafts.", "Draft."),
  });
  await writeTree(dir, {
    "outliner/evals/evals.json": suite("Outline owls", "outline.md"),
    "drafter/evals/evals.json": suite("Draft from outline.md", "draft.md"),
    "drafter/evals/setup/style.md": "Be brief.\n",
  });
  const current = iteration(1, { status: "executing" });
  const state = tuneState({
    execution_mode: "chain",
    target_skills: ["outliner", "drafter"],
    chain_order: ["outliner", "drafter"],
    skill_paths: ["/s/outliner", "/s/drafter"],
    evals_paths: [join(dir, "outliner/evals/evals.json"), join(dir, "drafter/evals/evals.json")],
    iterations: [current],
  });
  const fake = fakeAgent(runs);
  const { events, reporter } = recorder();
  const options: TuneOptions = {
    skillPaths: [],
    runs: 1,
    concurrency: 1,
    timeoutSeconds: 30,
    now: () => NOW,
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    reporter,
    createAgent: async () => fake.agent,
    createJudge: async () => {
      throw new Error("no judge");
    },
    ...overrides,
  };
  const ctx = createContext({ dir: tune, state, options, budget: undefined, suiteDir: dir });
  return { ctx, current, events, requests: fake.requests, tune };
}

describe("executePhase", () => {
  it("a chain: the downstream runs with the upstream's outputs in its workspace", async () => {
    const seen: string[][] = [];
    const { ctx, current, events, tune } = await chainSetup(
      [
        { write: { "outline.md": "OWL outline\n" }, costUsd: 0.5 },
        {
          onStart: (request) => {
            seen.push([request.cwd]);
          },
          write: { "draft.md": "OWL draft\n" },
          costUsd: 0.25,
        },
      ],
      { store: {} },
    );
    expect(await executePhase(ctx, current)).toBe("next");
    const outlinerRun = "iterations/iteration-1/execution/outliner/iteration-1";
    const drafterRun = "iterations/iteration-1/execution/drafter/iteration-1";
    expect(current.execution).toEqual({
      started_at: NOW.toISOString(),
      finished_at: NOW.toISOString(),
      iteration_dirs: { outliner: outlinerRun, drafter: drafterRun },
      runs: 2,
      errored_runs: 0,
      duration_seconds: 0,
      cost_usd: 0.75,
      chain: [
        {
          skill_name: "outliner",
          status: "completed",
          artifacts_dir: `${outlinerRun}/eval-1/with_skill/run-1/outputs`,
        },
        {
          skill_name: "drafter",
          status: "completed",
          artifacts_dir: `${drafterRun}/eval-1/with_skill/run-1/outputs`,
        },
      ],
    });
    expect(current.status).toBe("evaluating");
    // The drafter's suite was copied with the outliner's outputs added to its setup/ (metrics.json left out).
    const staged = join(tune, "iterations/iteration-1/chain-inputs/drafter");
    expect((await readdir(join(staged, "setup"))).sort()).toEqual(["outline.md", "style.md"]);
    expect(await readFile(join(staged, "setup", "outline.md"), "utf8")).toBe("OWL outline\n");
    expect(await readFile(join(tune, drafterRun, "eval-1/with_skill/run-1/outputs/draft.md"), "utf8")).toBe(
      "OWL draft\n",
    );
    expect(events).toEqual([
      ["phase", { round: 1, phase: "execute", skill: "outliner" }],
      ["phase", { round: 1, phase: "execute", skill: "drafter" }],
    ]);
    expect(seen).toHaveLength(1);
    // One result store for every round, beside the tune folders.
    expect((await readdir(join(dir, "ws"))).sort()).toEqual([".skillgym-cache", "tune-1"]);
    const saved = JSON.parse(await readFile(join(tune, "iteration-state.json"), "utf8"));
    expect(saved.iterations[0].status).toBe("evaluating");
  });

  it("a skill whose runs cannot be graded fails the iteration and the chain stops there", async () => {
    const { ctx, current, events, requests } = await chainSetup([{ outcome: "crash", message: "exit 9" }]);
    expect(await executePhase(ctx, current)).toBe("next");
    const error = current.execution?.error ?? "";
    expect(error).toMatch(/^outliner: no run was graded \(eval-1 run-1: crash: .*exit 9/);
    expect(current.execution).toMatchObject({
      iteration_dirs: { outliner: "iterations/iteration-1/execution/outliner/iteration-1" },
      runs: 0,
      chain: [{ skill_name: "outliner", status: "failed", error: error.slice("outliner: ".length) }],
    });
    expect(current).toMatchObject({
      status: "failed",
      finished_at: NOW.toISOString(),
      error: `execute: ${error}`,
    });
    expect(ctx.state).toMatchObject({ error_count: 1, consecutive_errors: 1 });
    expect(requests).toHaveLength(2);
    expect(events).toEqual([
      ["phase", { round: 1, phase: "execute", skill: "outliner" }],
      ["error", { round: 1, phase: "execute", message: error }],
    ]);
  });

  it("a chain: the upstream's outputs are those of its first eval with a graded run", async () => {
    let tick = 0;
    const { ctx, current, tune } = await chainSetup(
      [
        { outcome: "crash", message: "exit 9" },
        { write: { "outline.md": "OWL bats\n" } },
        { write: { "draft.md": "OWL" } },
      ],
      { now: () => new Date(NOW.getTime() + 1500 * tick++) },
    );
    await writeTree(dir, {
      "outliner/evals/evals.json": JSON.stringify({
        evals: [
          { id: 1, prompt: "Outline owls", expectations: [], checks: [] },
          { id: 2, prompt: "Outline bats", expectations: [], checks: [] },
        ],
      }),
    });
    expect(await executePhase(ctx, current)).toBe("next");
    const outlinerRun = "iterations/iteration-1/execution/outliner/iteration-1";
    expect(current.execution).toMatchObject({
      runs: 3,
      errored_runs: 1,
      duration_seconds: 1.5,
      chain: [
        {
          skill_name: "outliner",
          status: "completed",
          artifacts_dir: `${outlinerRun}/eval-2/with_skill/run-1/outputs`,
        },
        { skill_name: "drafter", status: "completed" },
      ],
    });
    const staged = join(tune, "iterations/iteration-1/chain-inputs/drafter");
    expect(await readFile(join(staged, "setup", "outline.md"), "utf8")).toBe("OWL bats\n");
  });

  it("hands every skill's runs the tune's model, retry policy, output limits and run reporter", async () => {
    const ended: string[] = [];
    const { ctx, current, requests } = await chainSetup(
      [
        { outcome: "rate_limited", message: "slow down" },
        { write: { "outline.md": "OWL", "notes.md": "x" } },
      ],
      {
        model: "model-x",
        // One attempt a run: the rate-limited run is not tried again.
        retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
        outputLimits: { files: 1 },
        runReporter: { onRunEnd: (record) => ended.push(record.outcome) },
      },
    );
    expect(await executePhase(ctx, current)).toBe("next");
    expect(current.execution?.error).toMatch(/^outliner: no run was graded \(eval-1 run-1: output_limit/);
    expect(requests.map((r) => r.model)).toEqual(["model-x", "model-x"]);
    expect(ended).toEqual(["rate_limited", "output_limit"]);
  });

  it("tells of each run whose grading failed", async () => {
    const failures: string[] = [];
    const { ctx, current, tune } = await chainSetup([{ write: { "outline.md": "OWL" } }], {
      onGradingError: (runDir) => failures.push(runDir),
      createJudge: async () => ({
        backend: "gemini",
        model: "judge-1",
        simulated: false,
        complete: async () => {
          throw new Error("judge down");
        },
      }),
    });
    await writeTree(dir, {
      "outliner/evals/evals.json": JSON.stringify({
        evals: [{ id: 1, prompt: "Outline owls", expectations: ["The outline is about owls"] }],
      }),
    });
    expect(await executePhase(ctx, current)).toBe("next");
    expect(current.status).toBe("failed");
    expect(failures).toContain(
      join(tune, "iterations/iteration-1/execution/outliner/iteration-1/eval-1/with_skill/run-1"),
    );
  });

  it("ends at once when cancelled or out of budget", async () => {
    const controller = new AbortController();
    const cancelled = await chainSetup(
      [{ onStart: () => controller.abort(), write: { "outline.md": "OWL" } }],
      {
        signal: controller.signal,
      },
    );
    expect(await executePhase(cancelled.ctx, cancelled.current)).toBe("cancelled");
    expect(cancelled.current.execution).toBeNull();

    const spent = await chainSetup([{ write: { "outline.md": "OWL" } }]);
    spent.ctx.budget = createBudget(0.1, 1);
    expect(await executePhase(spent.ctx, spent.current)).toBe("budget");
    expect(spent.requests).toEqual([]);
  });
});

describe("stageChainInputs", () => {
  it("starts from a clean copy when inputs were staged before", async () => {
    await writeTree(dir, {
      "drafter/evals/evals.json": suite("Draft", "draft.md"),
      "upstream/outline.md": "OWL outline\n",
      "staged/setup/stale.md": "from an earlier attempt\n",
    });
    const evals = await stageChainInputs({
      suiteDir: join(dir, "drafter/evals"),
      evalsFile: join(dir, "drafter/evals/evals.json"),
      upstreamOutputs: join(dir, "upstream"),
      dest: join(dir, "staged"),
    });
    expect(evals).toBe(join(dir, "staged", "evals.json"));
    expect(await readdir(join(dir, "staged", "setup"))).toEqual(["outline.md"]);
  });
});
