import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { IterationState, TuneIteration } from "../../src/contracts/iteration-state.js";
import { createBudget } from "../../src/run/budget.js";
import { createContext } from "../../src/tune/context.js";
import { improvePhase } from "../../src/tune/phase-improve.js";
import { writeIteration } from "../bench/iteration-fixture.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { type FakeRun, fakeAgent } from "./fake-agent.js";
import { skillMd } from "./tune-helpers.js";
import { iteration, measured, tuneState } from "./tune-states.js";

// The improve phase on a tune folder written by hand, with an improver agent in this process: what it is told of a
// chain step's neighbours and of its evaluation, and what is kept of its notes.
const NOW = new Date("2026-01-15T11:00:00.000Z");
const CHAIN = ["planner", "outliner", "drafter"];
const runsOf = (name: string) => `iterations/iteration-1/execution/${name}/iteration-1`;
const outputs = (name: string) => `${runsOf(name)}/eval-1/with_skill/run-1/outputs`;
const iterationDirs = (names: string[]) => Object.fromEntries(names.map((n) => [n, runsOf(n)]));

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  for (const name of [...CHAIN, "greeter"]) {
    await writeTree(dir, {
      [`iterations/iteration-1/skill-snapshot/${name}/SKILL.md`]: skillMd(name, `Does ${name} work.`, "v0"),
    });
    await writeIteration(join(dir, runsOf(name)), {
      record: null,
      evals: [{ id: 1, name: `${name}-eval` }],
      runs: [{ eval: 1, configuration: "with_skill", run: 1, results: { done: true } }],
    });
  }
});
afterEach(() => cleanup());

function setup(state: IterationState, runs: FakeRun[], signal?: AbortSignal) {
  const fake = fakeAgent(runs);
  const ctx = createContext({
    dir,
    state,
    options: {
      skillPaths: [],
      runs: 1,
      concurrency: 1,
      timeoutSeconds: 45,
      now: () => NOW,
      createAgent: async () => fake.agent,
      createJudge: async () => {
        throw new Error("no judge");
      },
      ...(signal ? { signal } : {}),
    },
    budget: undefined,
    suiteDir: dir,
  });
  return { ctx, requests: fake.requests };
}

/** A three-step chain measured once, `scores` per skill; `artifacts` the chain steps' outputs folders. */
function chainBest(
  scores: Record<string, number>,
  artifacts: Record<string, string | undefined>,
): TuneIteration {
  return iteration(1, {
    evaluation: { ...measured(70, 0.75, 65), skill_scores: scores },
    grading_result: "baseline",
    execution: {
      runs: 3,
      errored_runs: 0,
      iteration_dirs: iterationDirs(CHAIN),
      chain: CHAIN.map((name) => ({
        skill_name: name,
        status: "completed" as const,
        ...(artifacts[name] ? { artifacts_dir: artifacts[name] } : {}),
      })),
    },
  });
}

const chainState = (best: TuneIteration) =>
  tuneState({
    execution_mode: "chain",
    target_skills: CHAIN,
    chain_order: CHAIN,
    skill_paths: CHAIN.map((n) => `/s/${n}`),
    evals_paths: CHAIN.map((n) => `/s/${n}/evals/evals.json`),
    current_best: "v0",
    current_iteration: 1,
    iterations: [best],
  });

const edit = (name: string, notes?: string): FakeRun => ({
  write: {
    [`${name}/SKILL.md`]: skillMd(name, `Does ${name} work.`, "v1"),
    ...(notes === undefined ? {} : { "iteration-1-changes.md": notes }),
  },
});

const interfaceOf = (prompt: string) =>
  /keep its interface with its neighbours unchanged:\n([\s\S]*?)\n\nRules:/.exec(prompt)?.[1];

describe("improvePhase in a chain", () => {
  it("tells a middle step what it reads from the step before and what the step after reads of its own", async () => {
    await writeTree(dir, {
      [`${outputs("planner")}/plan.md`]: "plan\n",
      [`${outputs("outliner")}/outline.md`]: "outline\n",
      [`${outputs("drafter")}/draft.md`]: "draft\n",
    });
    const best = chainBest(
      { planner: 90, outliner: 40, drafter: 80 },
      Object.fromEntries(CHAIN.map((n) => [n, outputs(n)])),
    );
    const { ctx, requests } = setup(chainState(best), [edit("outliner", "- tighter\n")]);
    expect(await improvePhase(ctx, best)).toBe("next");
    expect(interfaceOf(requests[0]?.prompt ?? "")).toBe(
      '- it reads what "planner" produces: plan.md\n- "drafter" reads what it writes: outline.md',
    );
  });

  it("says (its outputs) where a neighbour's outputs are not known or no longer there", async () => {
    const interfaceWith = async (artifacts: Record<string, string>) => {
      const best = chainBest({ planner: 90, outliner: 40, drafter: 80 }, artifacts);
      const { ctx, requests } = setup(chainState(best), [edit("outliner", "- tighter\n")]);
      expect(await improvePhase(ctx, best)).toBe("next");
      return interfaceOf(requests[0]?.prompt ?? "");
    };
    const unknown =
      '- it reads what "planner" produces: (its outputs)\n- "drafter" reads what it writes: (its outputs)';
    // No step kept an outputs folder.
    expect(await interfaceWith({})).toBe(unknown);
    // Both named, both gone.
    expect(
      await interfaceWith({ planner: `${runsOf("planner")}/gone`, outliner: `${runsOf("outliner")}/gone` }),
    ).toBe(unknown);
  });
});

describe("improvePhase of a single skill", () => {
  const single = (evaluation = measured(60, 1, 20)) => {
    const best = iteration(1, {
      evaluation,
      grading_result: "baseline",
      execution: { runs: 1, errored_runs: 0, iteration_dirs: iterationDirs(["greeter"]) },
    });
    return { best, state: tuneState({ current_best: "v0", current_iteration: 1, iterations: [best] }) };
  };

  it("names no chain, and says (none named) where the evaluation named no strength or weakness", async () => {
    const { best, state } = single();
    const { ctx, requests } = setup(state, [edit("greeter", "- clearer\n")]);
    expect(await improvePhase(ctx, best)).toBe("next");
    const prompt = requests[0]?.prompt ?? "";
    expect(prompt).toContain("./greeter/ (version v0)");
    expect(prompt).not.toContain("chain");
    expect(prompt).toContain("Weaknesses:\n- (none named)\n");
    expect(prompt).toContain("Strengths to keep:\n- (none named)\n");
  });

  it("sums up the notes by their first line, without list marks or spaces around it", async () => {
    const summaryOf = async (notes: string | undefined) => {
      const { best, state } = single();
      const { ctx } = setup(state, [edit("greeter", notes)]);
      expect(await improvePhase(ctx, best)).toBe("next");
      expect(best.improvement).toMatchObject({ rolled_back: false });
      return best.improvement?.summary;
    };
    expect(await summaryOf("* Named the card's recipient.  \n- more\n")).toBe("Named the card's recipient.");
    expect(await summaryOf("Shorter intro - and a tip\n")).toBe("Shorter intro - and a tip");
    // Without notes, the note put in their place.
    expect(await summaryOf(undefined)).toBe(
      "The improver wrote no iteration-1-changes.md; the edit, as a diff:",
    );
  });

  it("tells the improver the edits that lost, a lost edit whose notes are gone as (no notes)", async () => {
    const best = iteration(1, {
      evaluation: measured(60, 1, 20),
      grading_result: "baseline",
      execution: { runs: 1, errored_runs: 0, iteration_dirs: iterationDirs(["greeter"]) },
      improvement: { changes_file: "iterations/iteration-1/iteration-1-changes.md", rolled_back: false },
    });
    const lost = iteration(2, { evaluation: measured(50, 1, 10), grading_result: "lost" });
    const current = iteration(3, { status: "improving" });
    const state = tuneState({ current_best: "v0", current_iteration: 3, iterations: [best, lost, current] });
    const { ctx, requests } = setup(state, [edit("greeter", "- x\n")]);
    expect(await improvePhase(ctx, current)).toBe("next");
    expect(requests[0]?.prompt).toContain("try something different:\n- v1 (score 50): (no notes)\n");
  });

  it("charges the improver's cost to the spending limit", async () => {
    const { best, state } = single();
    const { ctx } = setup(state, [{ ...edit("greeter", "- x\n"), costUsd: 0.75 }]);
    ctx.budget = createBudget(10, 1);
    expect(await improvePhase(ctx, best)).toBe("next");
    expect(ctx.budget.spentUsd).toBe(0.75);
    expect(best.improvement).toMatchObject({ cost_usd: 0.75 });
  });

  it("ends cancelled when the tune is cancelled during the edit, keeping nothing of it", async () => {
    const controller = new AbortController();
    const { best, state } = single();
    const { ctx } = setup(
      state,
      [{ ...edit("greeter", "- x\n"), onStart: () => controller.abort() }],
      controller.signal,
    );
    expect(await improvePhase(ctx, best)).toBe("cancelled");
    expect(best.improvement).toBeNull();
  });
});
