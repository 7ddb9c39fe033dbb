import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import type { Judge } from "../../src/judge/judge.js";
import { createContext } from "../../src/tune/context.js";
import type { TuneOptions } from "../../src/tune/options.js";
import {
  bestDirs,
  bestIteration,
  completeIteration,
  nextCandidate,
  recordError,
  versionDirs,
} from "../../src/tune/progress.js";
import { iteration, measured, tuneState } from "./tune-states.js";

const NOW = new Date("2026-01-15T11:00:00.000Z");

function options(overrides: Partial<TuneOptions> = {}): TuneOptions {
  return {
    skillPaths: [],
    runs: 3,
    concurrency: 1,
    timeoutSeconds: 60,
    createAgent: async () => ({ name: "agent" }) as unknown as Agent,
    createJudge: async () => ({ backend: "sim" }) as unknown as Judge,
    now: () => NOW,
    ...overrides,
  };
}

const ctxOf = (state = tuneState(), overrides: Partial<TuneOptions> = {}) =>
  createContext({
    dir: "/ws/tune",
    state,
    options: options(overrides),
    budget: undefined,
    suiteDir: "/suite",
  });

describe("recordError", () => {
  it("counts an iteration's first error once and joins later ones to its message", () => {
    const state = tuneState({ error_count: 1, consecutive_errors: 0 });
    const it1 = iteration(1);
    recordError(state, it1, "execute: boom");
    expect([state.error_count, state.consecutive_errors, it1.error]).toEqual([2, 1, "execute: boom"]);
    recordError(state, it1, "evaluate: bad");
    expect([state.error_count, state.consecutive_errors, it1.error]).toEqual([
      2,
      1,
      "execute: boom; evaluate: bad",
    ]);
  });
});

describe("completeIteration", () => {
  it("marks the iteration completed at the context's time and resets the run of errors only without an error", () => {
    const ctx = ctxOf(tuneState({ consecutive_errors: 2 }));
    const failed = iteration(1, { status: "improving", error: "improve: x" });
    completeIteration(ctx, failed);
    expect(failed).toMatchObject({ status: "completed", finished_at: "2026-01-15T11:00:00.000Z" });
    expect(ctx.state.consecutive_errors).toBe(2);
    const clean = iteration(2, { status: "improving" });
    completeIteration(ctx, clean);
    expect(ctx.state.consecutive_errors).toBe(0);
  });
});

describe("the best version and the next candidate", () => {
  const v0 = iteration(1, { evaluation: measured(50, 0.5, 50) });
  const v1Unmeasured = iteration(2, { version: "v1" });
  const v1 = iteration(3, { version: "v1", evaluation: measured(60, 1, 20), skill_snapshot: "snap/three" });

  it("bestIteration: none before a best is named; the measured iteration of that version", () => {
    expect(bestIteration(tuneState({ iterations: [v0] }))).toBeUndefined();
    expect(bestIteration(tuneState({ current_best: "v0", iterations: [v0, v1] }))).toBe(v0);
    expect(bestIteration(tuneState({ current_best: "v1", iterations: [v0, v1Unmeasured, v1] }))).toBe(v1);
    expect(bestIteration(tuneState({ current_best: "v1", iterations: [v0, v1Unmeasured] }))).toBeUndefined();
  });

  it("versionDirs: the iteration's snapshot, else its round's default folder, per skill in run order", () => {
    const chain = ctxOf(
      tuneState({ execution_mode: "chain", target_skills: ["a", "b"], chain_order: ["b", "a"] }),
    );
    expect(versionDirs(chain, v1)).toEqual({ b: "snap/three/b", a: "snap/three/a" });
    expect(Object.keys(versionDirs(chain, v1))).toEqual(["b", "a"]);
    const { skill_snapshot: _, ...bare } = iteration(4);
    expect(versionDirs(ctxOf(), bare)).toEqual({ greeter: "iterations/iteration-4/skill-snapshot/greeter" });
  });

  it("bestDirs: the originals before anything was measured, then the best version's snapshot", () => {
    expect(bestDirs(ctxOf())).toEqual({ greeter: "original/greeter" });
    expect(bestDirs(ctxOf(tuneState({ current_best: "v1", iterations: [v0, v1] })))).toEqual({
      greeter: "snap/three/greeter",
    });
  });

  it("nextCandidate: the originals first, then the improvement's result, or the same version again", () => {
    expect(nextCandidate(ctxOf(), 1)).toEqual({ dirs: { greeter: "original/greeter" }, parent: null });
    const improved = iteration(1, {
      evaluation: measured(50, 0.5, 50),
      improvement: {
        from_version: "v0",
        next_candidate: { greeter: "iterations/iteration-1/improved/greeter" },
      },
    });
    const state = tuneState({ current_best: "v0", iterations: [improved] });
    expect(nextCandidate(ctxOf(state), 2)).toEqual({
      dirs: { greeter: "iterations/iteration-1/improved/greeter" },
      parent: "v0",
    });
    // Without from_version the current best is the parent.
    const noFrom = iteration(1, { improvement: { next_candidate: { greeter: "x/greeter" } } });
    expect(nextCandidate(ctxOf(tuneState({ current_best: "v7", iterations: [noFrom] })), 2)).toEqual({
      dirs: { greeter: "x/greeter" },
      parent: "v7",
    });
    expect(nextCandidate(ctxOf(tuneState({ iterations: [noFrom] })), 2).parent).toBeNull();
    // An iteration that measured nothing: its own version again, with its own parent.
    const failed = iteration(2, { parent: "v0", status: "failed", improvement: { rolled_back: true } });
    expect(nextCandidate(ctxOf(tuneState({ iterations: [improved, failed] })), 3)).toEqual({
      dirs: { greeter: "iterations/iteration-2/skill-snapshot/greeter" },
      parent: "v0",
    });
    const { parent: _, ...orphan } = iteration(1);
    expect(nextCandidate(ctxOf(tuneState({ iterations: [orphan] })), 2)).toEqual({
      dirs: { greeter: "iterations/iteration-1/skill-snapshot/greeter" },
      parent: null,
    });
  });
});

describe("createContext", () => {
  it("takes the chain order in chain mode, the skills' order otherwise", () => {
    const chain = tuneState({ execution_mode: "chain", target_skills: ["a", "b"], chain_order: ["b", "a"] });
    expect(ctxOf(chain).order).toEqual(["b", "a"]);
    const { chain_order: _, ...noOrder } = chain;
    expect(ctxOf(noOrder).order).toEqual(["a", "b"]);
    expect(ctxOf(tuneState({ target_skills: ["a", "b"], chain_order: ["b", "a"] })).order).toEqual([
      "a",
      "b",
    ]);
  });

  it("runs each eval the state's number of times, else the options'; no reporter is an empty one", () => {
    expect(ctxOf(tuneState({ runs_per_eval: 2 })).runs).toBe(2);
    expect(ctxOf().runs).toBe(3);
    expect(ctxOf().reporter).toEqual({});
    const reporter = { onEnd: () => {} };
    expect(ctxOf(tuneState(), { reporter }).reporter).toBe(reporter);
  });

  it("finds each skill's suite by its place in target_skills, and names a skill that has none", () => {
    const ctx = ctxOf(
      tuneState({ target_skills: ["a", "b"], evals_paths: ["/a/evals.json", "/b/evals.json"] }),
    );
    expect(ctx.evalsPathOf("b")).toBe("/b/evals.json");
    expect(ctx.evalsPathOf("a")).toBe("/a/evals.json");
    expect(() => ctx.evalsPathOf("c")).toThrow('iteration-state.json names no eval suite for "c"');
    const { evals_paths: _, ...none } = tuneState();
    expect(() => ctxOf(none).evalsPathOf("greeter")).toThrow(
      'iteration-state.json names no eval suite for "greeter"',
    );
  });

  it("creates the agent, the judge and the evaluator once each, from the suite's folder", async () => {
    const made: string[] = [];
    const ctx = ctxOf(tuneState(), {
      createAgent: async (suite) => {
        made.push(`agent ${suite}`);
        return { name: "a" } as unknown as Agent;
      },
      createJudge: async (suite) => {
        made.push(`judge ${suite}`);
        return { backend: "sim" } as unknown as Judge;
      },
    });
    const agent = await ctx.agent();
    expect(await ctx.agent()).toBe(agent);
    const judge = await ctx.judge();
    expect(await ctx.judge()).toBe(judge);
    // Without createEvaluator the evaluator is the judge itself.
    expect(await ctx.evaluator()).toBe(judge);
    expect(made).toEqual(["agent /suite", "judge /suite"]);

    const evaluated: string[] = [];
    const withEvaluator = ctxOf(tuneState(), {
      createEvaluator: async (suite) => {
        evaluated.push(suite);
        return { backend: "gemini" } as unknown as Judge;
      },
    });
    const evaluator = await withEvaluator.evaluator();
    expect(evaluator.backend).toBe("gemini");
    expect(await withEvaluator.evaluator()).toBe(evaluator);
    expect(evaluated).toEqual(["/suite"]);
  });

  it("places paths in the tune folder, tells the time, and saves the state with it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "skillgym-ctx-"));
    try {
      const state = tuneState();
      const ctx = createContext({ dir, state, options: options(), budget: undefined, suiteDir: "/s" });
      expect(ctx.dir).toBe(dir);
      expect(ctx.state).toBe(state);
      expect(ctx.budget).toBeUndefined();
      expect(ctx.at("iterations/iteration-1/x")).toBe(join(dir, "iterations", "iteration-1", "x"));
      expect(ctx.now()).toBe(NOW);
      await ctx.save();
      const saved = JSON.parse(await readFile(join(dir, "iteration-state.json"), "utf8"));
      expect(saved.updated_at).toBe("2026-01-15T11:00:00.000Z");
      expect(saved.target_skills).toEqual(["greeter"]);
      const budget = { limitUsd: 1, spentUsd: 0 } as never;
      expect(createContext({ dir, state, options: options(), budget, suiteDir: "/s" }).budget).toBe(budget);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("uses the clock when no time is given", () => {
    const { now: _, ...rest } = options();
    const ctx = createContext({
      dir: "/d",
      state: tuneState(),
      options: rest,
      budget: undefined,
      suiteDir: "/s",
    });
    const before = Date.now();
    const at = ctx.now().getTime();
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });
});
