import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import { SkillgymError } from "../../src/errors.js";
import type { Judge } from "../../src/judge/judge.js";
import type { TuneOptions } from "../../src/tune/options.js";
import { createTune, resumeTune } from "../../src/tune/setup.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { skillMd } from "./tune-helpers.js";

// createTune and resumeTune in this process: every refusal comes before an agent is made; the agent is a stand-in.
const NOW = new Date("2026-01-15T10:30:00.000Z");
const EVALS = JSON.stringify({
  evals: [
    { id: 1, prompt: "Greet Ada", expectations: ["card.txt names Ada"] },
    { id: 2, prompt: "Greet Bo", expectations: [] },
    { id: 3, prompt: "Greet Cy", expectations: ["a", "b"] },
  ],
});

let dir: string;
let cleanup: () => Promise<void>;
let agents: string[];
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  agents = [];
  await writeTree(dir, {
    "greeter/SKILL.md": skillMd("greeter", "Writes greeting cards.", "Write card.txt."),
    "greeter/references/tips.md": "Be kind.\n",
    "greeter/evals/evals.json": EVALS,
    "greeter/evals/files/guest.txt": "Ada\n",
    "drafter/SKILL.md": skillMd("drafter", "Drafts talks.", "Draft."),
    "drafter/evals/evals.json": JSON.stringify({ evals: [{ id: 1, prompt: "Draft", expectations: [] }] }),
    "bare/SKILL.md": skillMd("bare", "Does a thing.", "Do it."),
  });
});
afterEach(() => cleanup());

function options(overrides: Partial<TuneOptions> = {}, simulated = true): TuneOptions {
  return {
    skillPaths: [join(dir, "greeter")],
    workspace: join(dir, "ws"),
    runs: 2,
    concurrency: 1,
    timeoutSeconds: 30,
    now: () => NOW,
    createAgent: async (suite) => {
      agents.push(suite);
      return { simulated } as Agent;
    },
    createJudge: async () => ({}) as Judge,
    ...overrides,
  };
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string; hint?: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillgymError);
  const e = error as SkillgymError;
  return { code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}) };
}

describe("createTune refuses bad input before any agent is made", () => {
  it("no skill, several skills in single mode, one skill in a chain, a skill named twice", async () => {
    expect(await refusal(createTune(options({ skillPaths: [] })))).toEqual({
      code: "USAGE",
      message: "tune needs a skill folder",
      hint: "skillgym tune path/to/skill",
    });
    const two = [join(dir, "greeter"), join(dir, "drafter")];
    expect(await refusal(createTune(options({ skillPaths: two })))).toEqual({
      code: "USAGE",
      message: "a single-mode tune tunes one skill",
      hint: "pass --chain to tune them as a chain, or tune them one by one",
    });
    expect(await refusal(createTune(options({ skillPaths: two, mode: "single" })))).toMatchObject({
      message: "a single-mode tune tunes one skill",
    });
    expect(await refusal(createTune(options({ mode: "chain" })))).toEqual({
      code: "USAGE",
      message: "a chain needs at least two skills",
      hint: "skillgym tune first-skill,second-skill --chain",
    });
    const twice = [join(dir, "greeter"), join(dir, "drafter"), join(dir, "greeter")];
    expect(await refusal(createTune(options({ skillPaths: twice, mode: "chain" })))).toEqual({
      code: "USAGE",
      message: 'the skill "greeter" is named twice',
    });
    expect(agents).toEqual([]);
    expect(await readdir(dir)).not.toContain("ws");
  });

  it("a workspace inside a skill, and a skill without evals unless a scenario stands in", async () => {
    const inside = join(dir, "drafter", "ws");
    expect(
      await refusal(
        createTune(
          options({
            skillPaths: [join(dir, "greeter"), join(dir, "drafter")],
            mode: "chain",
            workspace: inside,
          }),
        ),
      ),
    ).toEqual({
      code: "USAGE",
      message: `the workspace ${inside} is inside the skill ${join(dir, "drafter")}`,
      hint: "choose a --workspace outside the skill folder",
    });
    expect(await refusal(createTune(options({ skillPaths: [join(dir, "bare")] })))).toMatchObject({
      code: "NO_EVALS",
      message: 'no evals.json found for skill "bare"',
    });
    expect(
      await refusal(createTune(options({ skillPaths: [join(dir, "nowhere")], scenario: "x" }))),
    ).toMatchObject({ code: expect.not.stringMatching(/^NO_EVALS$/) });
    expect(agents).toEqual([]);
  });

  it("a scenario does not stand in for an evals.json that is there but broken", async () => {
    await writeTree(dir, { "bare/evals/evals.json": "{ not json" });
    const refused = await refusal(
      createTune(options({ skillPaths: [join(dir, "bare")], scenario: "Greets" })),
    );
    expect(refused.code).not.toBe("NO_EVALS");
    expect(refused.message).toContain(join(dir, "bare", "evals", "evals.json"));
    expect(await readdir(dir)).not.toContain("ws");
  });

  it("a tune folder that cannot be made is refused, naming it and the fix", async () => {
    // A workspace whose path leaves too little room for the tune folder's name (PATH_MAX is 4096).
    const room = 4_090 - dir.length;
    const parts = Array.from({ length: Math.ceil(room / 201) }, (_, i) =>
      "w".repeat(i === 0 ? room - 201 * (Math.ceil(room / 201) - 1) - 1 : 200),
    );
    const workspace = join(dir, ...parts);
    const refused = await refusal(createTune(options({ workspace })));
    expect(refused).toEqual({
      code: "WORKSPACE",
      message: expect.stringMatching(
        new RegExp(`^cannot create ${workspace}/tune-20260115-103000: ENAMETOOLONG`),
      ),
      hint: "choose a writable folder with --workspace",
    });
  });
});

describe("createTune", () => {
  it("backs the skill up with its evals, writes the first state, and estimates the tune", async () => {
    const { ctx, estimate } = await createTune(options({ preset: "quick", model: "opus", maxIterations: 4 }));
    const tune = join(dir, "ws", "tune-20260115-103000");
    expect(ctx.dir).toBe(tune);
    expect(agents).toEqual([join(dir, "greeter", "evals")]);
    expect(ctx.budget).toBeUndefined();
    expect(estimate).toEqual({
      // 3 evals × 2 runs × 4 iterations; judge calls: (2 judged × 2 runs + 1 evaluator) × 4.
      evalRuns: 24,
      improverRuns: 3,
      judgeCalls: 20,
      costUsd: 0,
      unitCosts: { agentRunUsd: 0, triggerRunUsd: 0, judgeCallUsd: 0 },
    });
    const state = JSON.parse(await readFile(join(tune, "iteration-state.json"), "utf8"));
    expect(state).toEqual({
      status: "running",
      target_skills: ["greeter"],
      skill_paths: [join(dir, "greeter")],
      evals_paths: [join(dir, "greeter", "evals", "evals.json")],
      execution_mode: "single",
      preset: "quick",
      model: "opus",
      runs_per_eval: 2,
      current_iteration: 0,
      max_iterations: 4,
      quality_threshold: 70,
      latest_score: null,
      best_score: null,
      current_best: null,
      score_trend: [],
      converged: false,
      error_count: 0,
      max_errors: 3,
      consecutive_errors: 0,
      termination_reason: null,
      started_at: "2026-01-15T10:30:00.000Z",
      updated_at: "2026-01-15T10:30:00.000Z",
      iterations: [],
      simulated: true,
    });
    expect(ctx.state).toEqual(state);
    const original = join(tune, "original", "greeter");
    expect((await readdir(original, { recursive: true })).sort()).toEqual([
      "SKILL.md",
      "evals",
      "evals/evals.json",
      "evals/files",
      "evals/files/guest.txt",
      "references",
      "references/tips.md",
    ]);
    // No history.json before anything was measured.
    expect((await readdir(tune)).sort()).toEqual(["iteration-state.json", "original"]);
  });

  it("numbers a second tune started in the same second, and takes the standard preset and the flags", async () => {
    await mkdir(join(dir, "ws", "tune-20260115-103000"), { recursive: true });
    await mkdir(join(dir, "ws", "tune-20260115-103000-2"));
    const { ctx } = await createTune(options({ threshold: 95 }));
    expect(ctx.dir).toBe(join(dir, "ws", "tune-20260115-103000-3"));
    expect(ctx.state).toMatchObject({ preset: "standard", max_iterations: 5, quality_threshold: 95 });
    expect(ctx.state).not.toHaveProperty("model");
    expect(ctx.state).not.toHaveProperty("chain_order");
    expect(ctx.state).not.toHaveProperty("test_scenario");
  });

  it("defaults the workspace to <skill>-workspace beside the first skill", async () => {
    const { workspace: _, ...rest } = options();
    const { ctx } = await createTune(rest);
    expect(ctx.dir).toBe(join(dir, "greeter-workspace", "tune-20260115-103000"));
  });

  it("tunes a chain in the order given, and a skill without evals from the scenario", async () => {
    const { ctx, estimate } = await createTune(
      options({
        skillPaths: [join(dir, "bare"), join(dir, "drafter")],
        mode: "chain",
        scenario: "Do the thing",
      }),
    );
    const scenarioFile = join(ctx.dir, "scenario", "bare", "evals.json");
    expect(ctx.state).toMatchObject({
      execution_mode: "chain",
      target_skills: ["bare", "drafter"],
      chain_order: ["bare", "drafter"],
      test_scenario: "Do the thing",
      evals_paths: [scenarioFile, join(dir, "drafter", "evals", "evals.json")],
    });
    expect(agents).toEqual([join(ctx.dir, "scenario", "bare")]);
    expect(JSON.parse(await readFile(scenarioFile, "utf8"))).toEqual({
      skill_name: "bare",
      _design_notes: "Written by skillgym tune from --scenario: the skill has no evals.json.",
      evals: [
        {
          id: "scenario",
          prompt: "Do the thing",
          expectations: ["The task was done completely and correctly, as asked: Do the thing"],
        },
      ],
    });
    // The scenario is one judged eval; the drafter has one unjudged: (1 + 1) × 2 runs × 5 iterations.
    expect(estimate).toMatchObject({ evalRuns: 20, improverRuns: 4, judgeCalls: (2 + 1 + 1) * 5 });
  });

  it("prices a real agent from the workspace's earlier runs and sets the spending limit", async () => {
    const { ctx, estimate } = await createTune(options({ maxCostUsd: 5 }, false));
    expect(ctx.state.simulated).toBe(false);
    expect(estimate.unitCosts).toEqual({ agentRunUsd: 0.3, triggerRunUsd: 0.05, judgeCallUsd: 0.05 });
    expect(estimate.costUsd).toBeCloseTo(30 * 0.3 + 4 * 0.3 + 25 * 0.05, 10);
    expect(ctx.budget).toEqual({ maxUsd: 5, estimateUsd: 0.3, spentUsd: 0, inFlight: 0, exhausted: false });
  });
});

describe("resumeTune", () => {
  it("refuses a folder without a state, or a state without suites", async () => {
    const missing = await refusal(resumeTune({ ...options(), resumeDir: join(dir, "nowhere") }));
    expect(missing.code).toBe("BAD_INPUT");
    expect(missing.message).toContain(join(dir, "nowhere", "iteration-state.json"));
    const { ctx } = await createTune(options());
    const state = JSON.parse(await readFile(join(ctx.dir, "iteration-state.json"), "utf8"));
    delete state.evals_paths;
    await writeFile(join(ctx.dir, "iteration-state.json"), JSON.stringify(state));
    expect(await refusal(resumeTune({ ...options(), resumeDir: ctx.dir }))).toEqual({
      code: "BAD_INPUT",
      message: `${join(ctx.dir, "iteration-state.json")}: evals_paths is missing`,
      hint: "this tune cannot be resumed; start a new one",
    });
  });

  it("makes the agent of a running tune and its spending limit; a finished tune needs neither", async () => {
    const { ctx } = await createTune(options());
    agents = [];
    const resumed = await resumeTune({ ...options({ maxCostUsd: 2 }, false), resumeDir: ctx.dir });
    expect(resumed.dir).toBe(ctx.dir);
    expect(resumed.state).toEqual(ctx.state);
    expect(agents).toEqual([join(dir, "greeter", "evals")]);
    expect(resumed.budget).toEqual({
      maxUsd: 2,
      estimateUsd: 0.3,
      spentUsd: 0,
      inFlight: 0,
      exhausted: false,
    });
    const simulated = await resumeTune({ ...options({ maxCostUsd: 2 }), resumeDir: ctx.dir });
    expect(simulated.budget).toMatchObject({ maxUsd: 2, estimateUsd: 0 });
    expect((await resumeTune({ ...options(), resumeDir: ctx.dir })).budget).toBeUndefined();

    const state = JSON.parse(await readFile(join(ctx.dir, "iteration-state.json"), "utf8"));
    await writeFile(
      join(ctx.dir, "iteration-state.json"),
      JSON.stringify({ ...state, status: "completed", termination_reason: "max_iterations_reached" }),
    );
    agents = [];
    const done = await resumeTune({ ...options({ maxCostUsd: 2 }), resumeDir: ctx.dir });
    expect(agents).toEqual([]);
    expect(done.budget).toBeUndefined();
  });
});
