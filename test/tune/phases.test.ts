import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { IterationState, TuneIteration } from "../../src/contracts/iteration-state.js";
import type { Judge, JudgeRequest } from "../../src/judge/judge.js";
import { createBudget } from "../../src/run/budget.js";
import { createContext, type TuneContext } from "../../src/tune/context.js";
import type { TuneOptions } from "../../src/tune/options.js";
import { evaluatePhase } from "../../src/tune/phase-evaluate.js";
import { improvePhase } from "../../src/tune/phase-improve.js";
import type { TuneReporter } from "../../src/tune/reporter.js";
import { writeIteration } from "../bench/iteration-fixture.js";
import { readJson, tempDir, writeTree } from "../e2e/helpers.js";
import { type FakeRun, fakeAgent } from "./fake-agent.js";
import { skillMd } from "./tune-helpers.js";
import { dims, iteration, measured, tuneState } from "./tune-states.js";

// The evaluate and improve phases on a tune folder written by hand: a scripted judge, an agent in this process.
const NOW = new Date("2026-01-15T11:00:00.000Z");

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  for (const name of ["outliner", "drafter"]) {
    await writeTree(dir, {
      [`iterations/iteration-1/skill-snapshot/${name}/SKILL.md`]: skillMd(
        name,
        `Does ${name} work.`,
        `${name} v0`,
      ),
    });
    await writeIteration(join(dir, `iterations/iteration-1/execution/${name}/iteration-1`), {
      record: null,
      evals: [{ id: 1, name: `${name}-eval` }],
      runs: [
        {
          eval: 1,
          configuration: "with_skill",
          run: 1,
          results: name === "outliner" ? { "has owls": true } : { "has owls": true, "cites outline": false },
        },
      ],
    });
  }
  // What each skill's run produced: the drafter reads the outliner's.
  await writeTree(dir, {
    "iterations/iteration-1/execution/outliner/iteration-1/eval-1/with_skill/run-1/outputs/outline.md":
      "OWLS\n",
    "iterations/iteration-1/execution/drafter/iteration-1/eval-1/with_skill/run-1/outputs/draft.md":
      "Draft\n",
    "iterations/iteration-1/execution/drafter/iteration-1/eval-1/with_skill/run-1/outputs/notes/n.md": "N\n",
  });
});
afterEach(() => cleanup());

/** The measured copies of round `round` (the phases read the round's own snapshot). */
async function snapshot(round: number, names = ["outliner", "drafter"]): Promise<void> {
  for (const name of names)
    await writeTree(dir, {
      [`iterations/iteration-${round}/skill-snapshot/${name}/SKILL.md`]: skillMd(
        name,
        `Does ${name} work.`,
        `${name} v0`,
      ),
    });
}

/** Answers each skill's evaluation with every dimension at `scores[name]`; a name missing from it gets prose. */
function rubricJudge(scores: Record<string, number | Error>) {
  const asked: JudgeRequest[] = [];
  const judge: Judge = {
    backend: "gemini",
    model: "g-1",
    simulated: false,
    complete: async (request) => {
      asked.push(request);
      const name = /Skill under evaluation: (\S+)/.exec(request.prompt)?.[1] ?? "";
      const score = scores[name];
      if (score instanceof Error) throw score;
      const text =
        score === undefined
          ? "I cannot score this."
          : JSON.stringify({
              dimensions: dims(score),
              strengths: [`${name} ok`],
              weaknesses: [`${name} thin`],
              suggestions: [`fix ${name}`],
            });
      return { text, model: "g-1-live", inputTokens: 1, outputTokens: 1, costUsd: 0.5, durationMs: 1 };
    },
  };
  return { judge, asked };
}

function recorder() {
  const events: unknown[] = [];
  const reporter: TuneReporter = {
    onPhase: (info) => events.push(["phase", info]),
    onEvaluated: (info) => events.push(["evaluated", info]),
    onImproved: (info) => events.push(["improved", info]),
    onError: (info) => events.push(["error", info]),
  };
  return { events, reporter };
}

const executed = (names: string[]) => ({
  runs: names.length,
  errored_runs: 0,
  iteration_dirs: Object.fromEntries(
    names.map((n) => [n, `iterations/iteration-1/execution/${n}/iteration-1`]),
  ),
  chain: names.map((n) => ({
    skill_name: n,
    status: "completed" as const,
    artifacts_dir: `iterations/iteration-1/execution/${n}/iteration-1/eval-1/with_skill/run-1/outputs`,
  })),
});

function context(state: IterationState, overrides: Partial<TuneOptions> = {}): TuneContext {
  const options: TuneOptions = {
    skillPaths: [],
    runs: 1,
    concurrency: 1,
    timeoutSeconds: 45,
    now: () => NOW,
    createAgent: async () => fakeAgent([]).agent,
    createJudge: async () => rubricJudge({}).judge,
    ...overrides,
  };
  return createContext({ dir, state, options, budget: undefined, suiteDir: dir });
}

const chainState = (fields: Partial<IterationState> = {}) =>
  tuneState({
    execution_mode: "chain",
    target_skills: ["outliner", "drafter"],
    chain_order: ["outliner", "drafter"],
    skill_paths: ["/s/outliner", "/s/drafter"],
    evals_paths: ["/s/outliner/evals/evals.json", "/s/drafter/evals/evals.json"],
    ...fields,
  });

describe("evaluatePhase", () => {
  it("a chain: each skill scored with its neighbours named, the mean kept as the baseline, the weakest's suggestions", async () => {
    const current = iteration(1, { status: "evaluating", execution: executed(["outliner", "drafter"]) });
    const state = chainState({ test_scenario: "Talks about owls", iterations: [current] });
    const { judge, asked } = rubricJudge({ outliner: 90, drafter: 60 });
    const { events, reporter } = recorder();
    const ctx = context(state, { createEvaluator: async () => judge, reporter });
    ctx.budget = createBudget(10, 1);
    expect(await evaluatePhase(ctx, current)).toBe("next");
    // outliner: 50 + 45 = 95; drafter: pass rate 0.5 → 25 + 30 = 55.
    const skill = (name: string, score: number, rubric: number, passRate: number) => ({
      score,
      rubric_score: rubric,
      expectation_pass_rate: passRate,
      dimensions: dims(rubric),
      strengths: [`${name} ok`],
      weaknesses: [`${name} thin`],
      suggestions: [`[medium] fix ${name}`],
    });
    const evaluation = {
      score: 75,
      rubric_score: 75,
      dimensions: dims(75),
      expectation_pass_rate: 0.75,
      suggestions: ["[medium] fix drafter"],
      strengths: ["outliner: outliner ok", "drafter: drafter ok"],
      weaknesses: ["outliner: outliner thin", "drafter: drafter thin"],
      skill_scores: { outliner: 95, drafter: 55 },
      skill_evaluations: { outliner: skill("outliner", 95, 90, 1), drafter: skill("drafter", 55, 60, 0.5) },
      cost_usd: 1,
      judge_model: "g-1-live",
      evaluator: "gemini",
    };
    expect(current.evaluation).toEqual(evaluation);
    expect(await readJson(join(dir, "iterations/iteration-1/evaluation.json"))).toEqual(evaluation);
    expect(current).toMatchObject({ status: "improving", grading_result: "baseline" });
    expect(state).toMatchObject({
      evaluator: "gemini",
      judge_model: "g-1-live",
      current_best: "v0",
      best_score: 75,
      latest_score: 75,
      score_trend: [75],
      status: "running",
    });
    expect(ctx.budget.spentUsd).toBe(1);
    expect(asked[0]?.prompt).toContain(
      'It is step 1 of 2 of a skill chain: "drafter" reads what it produces.',
    );
    expect(asked[0]?.prompt).toContain("Intended use (test scenario): Talks about owls");
    expect(asked[1]?.prompt).toContain(
      'It is step 2 of 2 of a skill chain: it reads what "outliner" produced.',
    );
    expect(asked[1]?.workspaceDir).toBe(join(dir, "iterations/iteration-1/execution/drafter/iteration-1"));
    expect(events).toEqual([
      ["phase", { round: 1, phase: "evaluate", skill: "outliner" }],
      ["phase", { round: 1, phase: "evaluate", skill: "drafter" }],
      [
        "evaluated",
        {
          round: 1,
          version: "v0",
          score: 75,
          passRate: 0.75,
          result: "baseline",
          skillScores: { outliner: 95, drafter: 55 },
        },
      ],
    ]);
    expect(JSON.parse(await readFile(join(dir, "iteration-state.json"), "utf8")).iterations[0].status).toBe(
      "improving",
    );
  });

  it("a fallback score is an error of the iteration and never beats the best; the threshold ends the tune", async () => {
    await snapshot(2);
    const best = iteration(1, { evaluation: measured(40, 0.5, 30), grading_result: "baseline" });
    const current = iteration(2, {
      status: "evaluating",
      execution: {
        runs: 1,
        errored_runs: 0,
        iteration_dirs: { drafter: "iterations/iteration-1/execution/drafter/iteration-1" },
      },
      skill_snapshot: "iterations/iteration-1/skill-snapshot",
    });
    const state = tuneState({
      target_skills: ["drafter"],
      current_best: "v0",
      best_score: 40,
      score_trend: [40],
      quality_threshold: 50,
      iterations: [best, current],
    });
    const { judge } = rubricJudge({ drafter: new Error("quota") });
    const { events, reporter } = recorder();
    const ctx = context(state, { createJudge: async () => judge, reporter });
    expect(await evaluatePhase(ctx, current)).toBe("finished");
    const warning = "the evaluator failed twice (quota; quota); the rubric is the fallback 50";
    expect(current.evaluation).toMatchObject({
      score: 50,
      warning,
      judge_model: "g-1",
      evaluator: "gemini",
      cost_usd: 0,
    });
    expect(current.evaluation).not.toHaveProperty("skill_scores");
    expect(current).toMatchObject({
      grading_result: "lost",
      status: "completed",
      finished_at: NOW.toISOString(),
      error: `evaluate: ${warning}`,
    });
    expect(state).toMatchObject({
      current_best: "v0",
      best_score: 40,
      latest_score: 50,
      score_trend: [40, 50],
      status: "completed",
      termination_reason: "quality_threshold_met",
      converged: false,
      error_count: 1,
      consecutive_errors: 1,
    });
    expect(events).toEqual([
      ["phase", { round: 2, phase: "evaluate", skill: "drafter" }],
      ["error", { round: 2, phase: "evaluate", message: warning }],
      ["evaluated", { round: 2, version: "v1", score: 50, passRate: 0.5, result: "lost", warning }],
    ]);
  });

  it("a chain's warnings are named by skill; a better reliable score wins; convergence is recorded", async () => {
    await snapshot(3);
    const first = iteration(1, { evaluation: measured(60, 1, 20), grading_result: "baseline" });
    const second = iteration(2, { evaluation: measured(61, 1, 22), grading_result: "won" });
    const current = iteration(3, {
      status: "evaluating",
      execution: executed(["outliner", "drafter"]),
      skill_snapshot: "iterations/iteration-1/skill-snapshot",
    });
    const state = chainState({
      current_best: "v1",
      best_score: 61,
      score_trend: [60, 61],
      iterations: [first, second, current],
    });
    // The outliner's answer is prose with scores: read from the text, with a warning, still reliable.
    const prose = "clarity 20 completeness 20 correctness 20 effectiveness 20 efficiency 20";
    const judge: Judge = {
      ...rubricJudge({}).judge,
      complete: async (request) => ({
        text: request.prompt.includes("Skill under evaluation: outliner")
          ? prose
          : JSON.stringify({ dimensions: dims(20) }),
        model: "m",
        inputTokens: 0,
        outputTokens: 0,
        costUsd: 0,
        durationMs: 0,
      }),
    };
    const ctx = context(state, { createJudge: async () => judge });
    expect(await evaluatePhase(ctx, current)).toBe("finished");
    // outliner 50 + 10 = 60, drafter 25 + 10 = 35: mean 47.5, lower than v1's 61.
    expect(current.evaluation).toMatchObject({
      score: 47.5,
      warning: `outliner: the evaluator's answer was not JSON; its scores were read from the text (${join(dir, "iterations/iteration-3/evaluator-answer-outliner.txt")})`,
      skill_scores: { outliner: 60, drafter: 35 },
    });
    expect(current.grading_result).toBe("lost");
    expect(state).toMatchObject({
      termination_reason: "convergence_detected",
      converged: true,
      score_trend: [60, 61, 47.5],
    });
    expect(await readFile(join(dir, "iterations/iteration-3/evaluator-answer-outliner.txt"), "utf8")).toBe(
      prose,
    );
  });

  it("a single skill: judged on its own snapshot's files, with no chain named", async () => {
    await snapshot(1, ["outliner"]);
    await writeTree(dir, {
      "iterations/iteration-1/skill-snapshot/outliner/SKILL.md": skillMd(
        "outliner",
        "Outlines.",
        "SNAPSHOT BODY",
      ),
    });
    const current = iteration(1, {
      status: "evaluating",
      execution: {
        runs: 1,
        errored_runs: 0,
        iteration_dirs: { outliner: "iterations/iteration-1/execution/outliner/iteration-1" },
      },
    });
    const { judge, asked } = rubricJudge({ outliner: 40 });
    const ctx = context(tuneState({ target_skills: ["outliner"], iterations: [current] }), {
      createJudge: async () => judge,
    });
    expect(await evaluatePhase(ctx, current)).toBe("next");
    expect(asked).toHaveLength(1);
    expect(asked[0]?.prompt).toContain("SNAPSHOT BODY");
    expect(asked[0]?.prompt).not.toContain("chain");
  });

  it("a chain's warnings of several skills are joined, each named", async () => {
    await snapshot(1);
    const current = iteration(1, { status: "evaluating", execution: executed(["outliner", "drafter"]) });
    const prose = "clarity 20 completeness 20 correctness 20 effectiveness 20 efficiency 20";
    const judge: Judge = {
      ...rubricJudge({}).judge,
      complete: async () => ({
        text: prose,
        model: "m",
        inputTokens: 0,
        outputTokens: 0,
        costUsd: 0,
        durationMs: 0,
      }),
    };
    const ctx = context(chainState({ iterations: [current] }), { createJudge: async () => judge });
    await evaluatePhase(ctx, current);
    const read = (name: string) =>
      `${name}: the evaluator's answer was not JSON; its scores were read from the text (${join(dir, `iterations/iteration-1/evaluator-answer-${name}.txt`)})`;
    expect(current.evaluation?.warning).toBe(`${read("outliner")}; ${read("drafter")}`);
  });

  it("an error that is not a cancel fails the phase", async () => {
    // Round 3 has no snapshot to judge.
    const current = iteration(3, {
      status: "evaluating",
      execution: {
        runs: 1,
        errored_runs: 0,
        iteration_dirs: { outliner: "iterations/iteration-1/execution/outliner/iteration-1" },
      },
    });
    const ctx = context(tuneState({ target_skills: ["outliner"], iterations: [current] }), {
      createJudge: async () => rubricJudge({ outliner: 80 }).judge,
    });
    await expect(evaluatePhase(ctx, current)).rejects.toThrow(
      join(dir, "iterations/iteration-3/skill-snapshot"),
    );
  });

  it("refuses to evaluate without a graded run; a judge error stops the tune unless it was cancelled", async () => {
    const ungraded = "iterations/iteration-1/execution/greeter/iteration-1";
    await writeIteration(join(dir, ungraded), {
      record: null,
      evals: [{ id: 1 }],
      runs: [{ eval: 1, configuration: "with_skill", run: 1 }],
    });
    const empty = iteration(1, {
      status: "evaluating",
      execution: { runs: 1, errored_runs: 0, iteration_dirs: { greeter: ungraded } },
    });
    await expect(evaluatePhase(context(tuneState({ iterations: [empty] })), empty)).rejects.toThrow(
      `no graded run in ${join(dir, ungraded)} to evaluate`,
    );
    await snapshot(1, ["greeter"]);
    const current = iteration(1, {
      status: "evaluating",
      execution: {
        runs: 1,
        errored_runs: 0,
        iteration_dirs: { greeter: "iterations/iteration-1/execution/drafter/iteration-1" },
      },
    });
    const controller = new AbortController();
    const throwing: Judge = {
      ...rubricJudge({}).judge,
      complete: async () => {
        controller.abort();
        throw new Error("stopped");
      },
    };
    const cancelled = context(tuneState({ iterations: [current] }), {
      createJudge: async () => throwing,
      signal: controller.signal,
    });
    expect(await evaluatePhase(cancelled, current)).toBe("cancelled");
    expect(current.status).toBe("evaluating");
  });
});

function improveSetup(
  fields: Partial<IterationState>,
  runs: FakeRun[],
  overrides: Partial<TuneOptions> = {},
) {
  const fake = fakeAgent(runs);
  const { events, reporter } = recorder();
  const state = tuneState({ ...fields, current_iteration: fields.iterations?.length ?? 0 });
  const ctx = context(state, {
    createAgent: async () => fake.agent,
    reporter,
    model: "opus",
    ...overrides,
  });
  return { ctx, events, requests: fake.requests };
}

describe("improvePhase", () => {
  it("needs a measured best version", async () => {
    const it1 = iteration(1, { status: "improving" });
    await expect(improvePhase(context(tuneState({ iterations: [it1] })), it1)).rejects.toThrow(
      "the improve phase needs a measured best version",
    );
  });

  it("a chain: edits the weakest skill from its own evaluation, told its interface and the edits that lost", async () => {
    const evaluation = {
      ...measured(70, 0.75, 65),
      skill_scores: { outliner: 95, drafter: 55 },
      skill_evaluations: {
        outliner: { ...measured(95, 1, 90), suggestions: ["[high] outline more"] },
        drafter: {
          ...measured(55, 0.5, 60),
          suggestions: ["[high] cite the outline"],
          strengths: ["brief"],
          weaknesses: ["uncited"],
        },
      },
    };
    const best = iteration(1, {
      execution: executed(["outliner", "drafter"]),
      evaluation,
      grading_result: "baseline",
      improvement: { changes_file: "iterations/iteration-1/iteration-1-changes.md", rolled_back: false },
    });
    const lost = (round: number, score: number, result: "lost" | "tie" | "won", parent = "v0") =>
      iteration(round, {
        parent,
        evaluation: measured(score, 0.5, 50),
        grading_result: result,
        improvement: { rolled_back: false },
      });
    const iterations: TuneIteration[] = [
      best,
      lost(2, 50, "lost"),
      lost(3, 51, "tie"),
      lost(4, 52, "lost"),
      lost(5, 53, "tie"),
      lost(6, 80, "won"),
      lost(7, 40, "lost", "v9"),
    ];
    // Iteration 4 (v3) had no notes from the iteration that made it.
    (iterations[2] as TuneIteration).improvement = null;
    const current = iteration(8, { status: "improving" });
    iterations.push(current);
    await writeTree(dir, {
      "iterations/iteration-1/iteration-1-changes.md": "- first try",
      "iterations/iteration-1/execution/drafter/iteration-1/eval-1/with_skill/run-1/outputs/metrics.json":
        "{}",
    });
    for (const round of [2, 4])
      (iterations[round - 1] as TuneIteration).improvement = { changes_file: `c${round}.md` };
    await writeTree(dir, { "c2.md": "- second\n  try", "c4.md": "- fourth" });
    const { ctx, events, requests } = improveSetup({ ...chainState(), current_best: "v0", iterations }, [
      {
        write: {
          "drafter/SKILL.md": skillMd("drafter", "Does drafter work.", "drafter v1"),
          "iteration-8-changes.md": `\n  # ${"Cited the outline. ".repeat(12)}\n- more\n`,
        },
      },
    ]);
    expect(await improvePhase(ctx, current)).toBe("next");
    const prompt = requests[0]?.prompt ?? "";
    expect(prompt).toContain(
      "skillgym tune iteration 8: improve the Agent Skill in ./drafter/ (version v0).",
    );
    expect(prompt).toContain("composite score 55/100, expectation pass rate 50%");
    expect(prompt).toContain("Suggestions, most important first:\n- [high] cite the outline\n");
    expect(prompt).toContain("Weaknesses:\n- uncited\n");
    expect(prompt).toContain("Strengths to keep:\n- brief\n");
    expect(prompt).toContain(
      "Expectations the runs failed:\n- cites outline (evidence: not found: cites outline)\n",
    );
    // The last three losing or tied edits from v0 (not v1's, the oldest; not a win, nor one from v9), each with the
    // notes of the iteration that made it.
    expect(prompt).toContain(
      "try something different:\n- v2 (score 51): - second try\n- v3 (score 52): (no notes)\n- v4 (score 53): - fourth\n",
    );
    expect(prompt).toContain('unchanged:\n- it reads what "outliner" produces: outline.md\n');
    expect(prompt).toContain("interface");
    expect(prompt).not.toContain("reads what it writes");
    expect(current.improvement).toEqual({
      target_skills: ["drafter"],
      from_version: "v0",
      attempts: 1,
      cost_usd: 0,
      changes_file: "iterations/iteration-8/iteration-8-changes.md",
      summary: "Cited the outline. ".repeat(12).trim().slice(0, 200),
      rolled_back: false,
      next_candidate: {
        outliner: "iterations/iteration-1/skill-snapshot/outliner",
        drafter: "iterations/iteration-8/improved/drafter",
      },
    });
    expect(current).toMatchObject({ status: "completed", finished_at: NOW.toISOString() });
    expect(await readFile(join(dir, "iterations/iteration-8/improved/drafter/SKILL.md"), "utf8")).toContain(
      "drafter v1",
    );
    expect(requests[0]).toMatchObject({ model: "opus", timeoutMs: 45_000 });
    expect(events).toEqual([
      ["phase", { round: 8, phase: "improve", skill: "drafter" }],
      ["improved", { round: 8, targets: ["drafter"], rolledBack: false }],
    ]);
  });

  it("a chain's first step, the weakest without its own evaluation: told what its downstream reads", async () => {
    await writeTree(dir, {
      "iterations/iteration-1/execution/outliner/iteration-1/eval-1/with_skill/run-1/outputs/metrics.json":
        "{}",
      "iterations/iteration-1/execution/outliner/iteration-1/eval-1/with_skill/run-1/outputs/a/b.md": "B\n",
    });
    const best = iteration(1, {
      execution: executed(["outliner", "drafter"]),
      evaluation: {
        ...measured(70, 0.75, 65),
        skill_scores: { outliner: 50, drafter: 90 },
        suggestions: ["[low] all"],
      },
      grading_result: "baseline",
    });
    const { ctx, requests } = improveSetup({ ...chainState(), current_best: "v0", iterations: [best] }, [
      { write: {} },
    ]);
    expect(await improvePhase(ctx, best)).toBe("next");
    const prompt = requests[0]?.prompt ?? "";
    expect(prompt).toContain("./outliner/ (version v0)");
    expect(prompt).toContain("composite score 70/100, expectation pass rate 75%");
    expect(prompt).toContain("Suggestions, most important first:\n- [low] all\n");
    expect(prompt).toContain('unchanged:\n- "drafter" reads what it writes: a/b.md, outline.md\n\nRules:');
    expect(best.improvement?.target_skills).toEqual(["outliner"]);
  });

  it("a failed edit is rolled back and counted as the iteration's error", async () => {
    const best = iteration(1, {
      evaluation: measured(60, 1, 20),
      grading_result: "baseline",
      execution: {
        runs: 1,
        errored_runs: 0,
        iteration_dirs: { outliner: "iterations/iteration-1/execution/outliner/iteration-1" },
      },
    });
    const { ctx, events } = improveSetup(
      { target_skills: ["outliner"], current_best: "v0", consecutive_errors: 1, iterations: [best] },
      [{ write: {} }],
    );
    expect(await improvePhase(ctx, best)).toBe("next");
    const dirs = { outliner: "iterations/iteration-1/skill-snapshot/outliner" };
    expect(best.improvement).toEqual({
      target_skills: ["outliner"],
      from_version: "v0",
      attempts: 2,
      cost_usd: 0,
      rolled_back: true,
      next_candidate: dirs,
      error: "the improver changed nothing",
    });
    expect(best).toMatchObject({ status: "completed", error: "improve: the improver changed nothing" });
    expect(ctx.state).toMatchObject({ error_count: 1, consecutive_errors: 2 });
    expect(events).toEqual([
      ["phase", { round: 1, phase: "improve", skill: "outliner" }],
      ["error", { round: 1, phase: "improve", message: "the improver changed nothing" }],
      [
        "improved",
        { round: 1, targets: ["outliner"], rolledBack: true, error: "the improver changed nothing" },
      ],
    ]);
  });

  it("the spending limit rolls back without an error and ends the tune; a cancelled edit records nothing", async () => {
    const best = () =>
      iteration(1, {
        evaluation: measured(60, 1, 20),
        grading_result: "baseline",
        execution: {
          runs: 1,
          errored_runs: 0,
          iteration_dirs: { outliner: "iterations/iteration-1/execution/outliner/iteration-1" },
        },
      });
    const spent = best();
    const { ctx } = improveSetup({ target_skills: ["outliner"], current_best: "v0", iterations: [spent] }, [
      { write: {} },
    ]);
    ctx.budget = createBudget(1, 2);
    expect(await improvePhase(ctx, spent)).toBe("budget");
    expect(spent.improvement).toMatchObject({
      rolled_back: true,
      attempts: 0,
      error: "stopped: --max-cost reached",
    });
    expect(spent).not.toHaveProperty("error");
    expect(ctx.state.error_count).toBe(0);

    const cancelled = best();
    const other = improveSetup({ target_skills: ["outliner"], current_best: "v0", iterations: [cancelled] }, [
      { outcome: "cancelled" },
    ]);
    expect(await improvePhase(other.ctx, cancelled)).toBe("cancelled");
    expect(cancelled).toMatchObject({ status: "completed", improvement: null });
  });

  it("a summary is the notes' first line; no summary from empty notes", async () => {
    const best = iteration(1, {
      evaluation: measured(60, 1, 20),
      grading_result: "baseline",
      execution: {
        runs: 1,
        errored_runs: 0,
        iteration_dirs: { outliner: "iterations/iteration-1/execution/outliner/iteration-1" },
      },
    });
    const { ctx } = improveSetup({ target_skills: ["outliner"], current_best: "v0", iterations: [best] }, [
      {
        write: {
          "outliner/SKILL.md": skillMd("outliner", "Does outliner work.", "v1"),
          "iteration-1-changes.md": "\n - \n",
        },
      },
    ]);
    expect(await improvePhase(ctx, best)).toBe("next");
    expect(best.improvement).not.toHaveProperty("summary");
    expect(best.improvement).toMatchObject({
      rolled_back: false,
      changes_file: "iterations/iteration-1/iteration-1-changes.md",
    });
    expect(await readFile(join(dir, "iterations/iteration-1/iteration-1-changes.md"), "utf8")).toBe(
      "\n - \n",
    );
  });
});
