import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { IterationState } from "../contracts/iteration-state.js";
import { SkillgymError } from "../errors.js";
import { unitCostsFromHistory } from "../pipeline/cost-history.js";
import { createBudget } from "../run/budget.js";
import { defaultWorkspace } from "../run/iteration.js";
import { loadInputs } from "../run/load-inputs.js";
import { writeJson } from "../runlog/atomic-write.js";
import { loadSkill, type Skill } from "../skill/index.js";
import { relativeInside } from "../tree/paths.js";
import { createContext, type TuneContext } from "./context.js";
import { estimateTune, type TuneEstimate } from "./estimate.js";
import type { TuneOptions } from "./options.js";
import { inTune, tunePaths } from "./paths.js";
import { tuneSettings } from "./settings.js";
import { copyEvalsFolder, copySkillFiles } from "./skill-files.js";
import { readTuneState } from "./tune-state.js";

interface Target {
  skill: Skill;
  /** Undefined when the skill has no evals and the scenario stands in. */
  evalsFile: string | undefined;
  evals: number;
  judgedEvals: number;
}

async function resolveTarget(path: string, scenario: string | undefined): Promise<Target> {
  try {
    const { skill, suite } = await loadInputs({ skillPath: path, need: "evals" });
    return {
      skill,
      evalsFile: suite.evalsFile,
      evals: suite.evals.length,
      judgedEvals: suite.evals.filter((e) => e.expectations.length > 0).length,
    };
  } catch (error) {
    if (!(error instanceof SkillgymError)) throw error;
    if (error.code !== "NO_EVALS" || !scenario) throw error;
    const { skill } = await loadSkill(path);
    if (!skill) throw error;
    return { skill, evalsFile: undefined, evals: 1, judgedEvals: 1 };
  }
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
}

async function newTuneDir(workspace: string, now: Date): Promise<string> {
  const base = join(workspace, `tune-${stamp(now)}`);
  for (let n = 1; ; n++) {
    const dir = n === 1 ? base : `${base}-${n}`;
    try {
      await mkdir(dir);
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new SkillgymError("WORKSPACE", `cannot create ${dir}: ${(error as Error).message}`, {
          hint: "choose a writable folder with --workspace",
        });
      }
    }
  }
}

/** The scenario as the one eval of a skill without evals.json, graded by the judge. */
async function writeScenarioSuite(dir: string, name: string, scenario: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, "evals.json");
  await writeJson(file, {
    skill_name: name,
    _design_notes: "Written by skillgym tune from --scenario: the skill has no evals.json.",
    evals: [
      {
        id: "scenario",
        prompt: scenario,
        expectations: [`The task was done completely and correctly, as asked: ${scenario}`],
      },
    ],
  });
  return file;
}

function checkModeAndNames(options: TuneOptions, targets: Target[]): void {
  const mode = options.mode ?? "single";
  if (options.skillPaths.length === 0)
    throw new SkillgymError("USAGE", "tune needs a skill folder", { hint: "skillgym tune path/to/skill" });
  if (mode === "single" && options.skillPaths.length > 1)
    throw new SkillgymError("USAGE", "a single-mode tune tunes one skill", {
      hint: "pass --chain to tune them as a chain, or tune them one by one",
    });
  if (mode === "chain" && options.skillPaths.length < 2)
    throw new SkillgymError("USAGE", "a chain needs at least two skills", {
      hint: "skillgym tune first-skill,second-skill --chain",
    });
  const names = targets.map((t) => t.skill.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new SkillgymError("USAGE", `the skill "${twice}" is named twice`);
}

/** Phase 1 of the seed: checks every input, backs up the skills, writes the first iteration-state.json. */
export async function createTune(
  options: TuneOptions,
): Promise<{ ctx: TuneContext; estimate: TuneEstimate }> {
  const targets = await Promise.all(options.skillPaths.map((p) => resolveTarget(p, options.scenario)));
  checkModeAndNames(options, targets);
  const first = targets[0] as Target;
  const workspace = resolve(options.workspace ?? defaultWorkspace(first.skill.dir, first.skill.name));
  for (const t of targets) {
    if (relativeInside(t.skill.dir, workspace) !== undefined)
      throw new SkillgymError("USAGE", `the workspace ${workspace} is inside the skill ${t.skill.dir}`, {
        hint: "choose a --workspace outside the skill folder",
      });
  }
  await mkdir(workspace, { recursive: true });
  const now = options.now?.() ?? new Date();
  const dir = await newTuneDir(workspace, now);
  const evalsPaths: string[] = [];
  for (const t of targets) {
    const original = inTune(dir, tunePaths.original(t.skill.name));
    await copySkillFiles(t.skill.dir, original);
    await copyEvalsFolder(t.skill.dir, original);
    evalsPaths.push(
      t.evalsFile ??
        (await writeScenarioSuite(
          inTune(dir, tunePaths.scenario(t.skill.name)),
          t.skill.name,
          // Stryker disable next-line StringLiteral: equivalent, a target without evals has a scenario
          options.scenario ?? "",
        )),
    );
  }
  const settings = tuneSettings({
    preset: options.preset,
    maxIterations: options.maxIterations,
    threshold: options.threshold,
  });
  const mode = options.mode ?? "single";
  const names = targets.map((t) => t.skill.name);
  const state: IterationState = {
    status: "running",
    target_skills: names,
    skill_paths: targets.map((t) => t.skill.dir),
    evals_paths: evalsPaths,
    execution_mode: mode,
    ...(mode === "chain" ? { chain_order: names } : {}),
    ...(options.scenario ? { test_scenario: options.scenario } : {}),
    preset: settings.preset,
    ...(options.model ? { model: options.model } : {}),
    runs_per_eval: options.runs,
    current_iteration: 0,
    max_iterations: settings.max_iterations,
    quality_threshold: settings.quality_threshold,
    latest_score: null,
    best_score: null,
    current_best: null,
    score_trend: [],
    converged: false,
    error_count: 0,
    max_errors: 3,
    consecutive_errors: 0,
    termination_reason: null,
    started_at: now.toISOString(),
    updated_at: now.toISOString(),
    iterations: [],
  };
  const ctx = createContext({
    dir,
    state,
    options,
    budget: undefined,
    suiteDir: dirname(evalsPaths[0] as string),
  });
  const agent = await ctx.agent();
  state.simulated = agent.simulated;
  const unitCosts = agent.simulated
    ? { agentRunUsd: 0, triggerRunUsd: 0, judgeCallUsd: 0 }
    : await unitCostsFromHistory(workspace);
  if (options.maxCostUsd !== undefined) ctx.budget = createBudget(options.maxCostUsd, unitCosts.agentRunUsd);
  await ctx.save();
  const estimate = estimateTune({
    suites: targets,
    runs: options.runs,
    iterations: settings.max_iterations,
    unitCosts,
  });
  return { ctx, estimate };
}

/** Picks an interrupted tune up from its iteration-state.json. */
export async function resumeTune(options: TuneOptions & { resumeDir: string }): Promise<TuneContext> {
  const dir = resolve(options.resumeDir);
  const state = await readTuneState(dir);
  const suite = state.evals_paths?.[0];
  if (!suite)
    throw new SkillgymError("BAD_INPUT", `${join(dir, tunePaths.state)}: evals_paths is missing`, {
      hint: "this tune cannot be resumed; start a new one",
    });
  const ctx = createContext({ dir, state, options, budget: undefined, suiteDir: dirname(suite) });
  if (state.status === "running") {
    const agent = await ctx.agent();
    const unitCosts = agent.simulated ? undefined : await unitCostsFromHistory(dirname(dir));
    if (options.maxCostUsd !== undefined)
      ctx.budget = createBudget(options.maxCostUsd, unitCosts?.agentRunUsd ?? 0);
  }
  return ctx;
}
