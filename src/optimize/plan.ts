import { resolve } from "node:path";
import type { Agent } from "../agents/agent.js";
import type { TriggerQuery } from "../contracts/evals.js";
import { SkillgymError } from "../errors.js";
import type { Judge } from "../judge/judge.js";
import { unitSecondsFromHistory } from "../pipeline/duration-history.js";
import { estimateWallSeconds, type UnitSeconds } from "../pipeline/estimate.js";
import { defaultWorkspace } from "../run/iteration.js";
import { loadInputs } from "../run/load-inputs.js";
import type { StoreRequest } from "../run/options.js";
import type { RetryPolicy } from "../run/retry.js";
import type { Skill } from "../skill/index.js";
import type { Suite } from "../suite/index.js";
import type { TriggerReporter } from "../triggers/index.js";
import { type ScreenForecast, screenForecast } from "../triggers/replay/index.js";
import { type OptimizeConditions, resolveOptimizeConditions } from "./conditions.js";
import {
  estimateOptimize,
  freeUnitCosts,
  type OptimizeEstimate,
  type OptimizeUnitCosts,
  unitCostsFromOptimizations,
} from "./estimate.js";
import type { OptimizeReporter } from "./reporter.js";
import { type OptimizeScreenRequest, optimizeScreen, testFirstRunScreened } from "./screen.js";
import { type QuerySplit, splitQueries } from "./split.js";

export interface OptimizeOptions {
  skillPath: string;
  evalsPath?: string;
  /** Where the suite is discovered from. */
  projectRoot?: string;
  /** `--project-root`: each trigger run of every evaluation starts in a copy of this project. */
  project?: string;
  /** `--installed`: folders of skill folders, every skill installed beside the one under test. */
  installed?: string[];
  /** `--context`: a prior conversation each trigger run continues. */
  context?: string;
  /** Default: <skill-parent>/<name>-workspace; results go to <workspace>/optimize-<timestamp>/. */
  workspace?: string;
  /** Improver proposals at most; iteration 0 (the original description) comes on top. */
  maxIterations: number;
  /** Share of each class held out for test (0 < holdout < 1). */
  holdout: number;
  runs: number;
  threshold: number;
  seed: number;
  /** Evaluations in a row with an unchanged test score that end the loop (default 2 after the first). */
  patience?: number;
  concurrency: number;
  timeoutSeconds: number;
  /** The agent's model. */
  model?: string;
  maxCostUsd?: number;
  /** Write the best description into SKILL.md at the end. */
  apply?: boolean;
  retry?: RetryPolicy;
  signal?: AbortSignal;
  reporter?: OptimizeReporter;
  triggerReporter?: TriggerReporter;
  /** `--screen`: replay on the train runs asked for, turned off, or left to the default (on when possible). */
  screen?: OptimizeScreenRequest;
  /** Reuse trigger verdicts of descriptions evaluated before (default store: <workspace>/.skillgym-cache). */
  store?: StoreRequest;
  /** Continue the optimization in this optimize-<timestamp>/ folder (or its results.json). */
  resumeDir?: string;
  /** The options the user set; on resume the others come from results.json (default: all of them). */
  explicit?: readonly string[];
  createAgent: (inputs: { skill: Skill; suite: Suite }) => Promise<Agent>;
  /** The model that proposes descriptions (any judge backend). */
  createImprover: (inputs: { skill: Skill; suite: Suite }) => Promise<Judge>;
  now?: () => Date;
}

export interface PreparedOptimize {
  skill: Skill;
  suite: Suite;
  queries: TriggerQuery[];
  split: QuerySplit;
  workspace: string;
  /** The conditions every evaluation's trigger runs are made under: the flags, then the suite's `"conditions"`. */
  conditions: OptimizeConditions;
}

export const DEFAULT_PATIENCE = 2;

/** Loads and checks the skill and its trigger queries and splits them; nothing runs. */
export async function prepareOptimize(options: OptimizeOptions): Promise<PreparedOptimize> {
  if (!Number.isInteger(options.maxIterations) || options.maxIterations < 0)
    throw new SkillgymError(
      "USAGE",
      `--max-iterations must be a whole number of 0 or more (got ${options.maxIterations})`,
    );
  const { skill, suite } = await loadInputs({
    skillPath: options.skillPath,
    ...(options.evalsPath ? { evalsPath: options.evalsPath } : {}),
    ...(options.projectRoot ? { projectRoot: options.projectRoot } : {}),
    need: "triggers",
  });
  if (suite.triggers.length === 0)
    throw new SkillgymError("NO_EVALS", `${suite.triggersFile} has no queries`, {
      hint: 'add [{ "query": "…", "should_trigger": true }, …] with queries that should and should not load the skill',
    });
  const split = splitQueries(suite.triggers, { holdout: options.holdout, seed: options.seed });
  const workspace = resolve(options.workspace ?? defaultWorkspace(skill.dir, skill.name));
  const conditions = await resolveOptimizeConditions(options, { skill, suite });
  return { skill, suite, queries: suite.triggers, split, workspace, conditions };
}

export async function unitCostsFor(
  workspace: string,
  simulated: { agent: boolean; improver: boolean },
): Promise<OptimizeUnitCosts> {
  if (simulated.agent && simulated.improver) return freeUnitCosts;
  const measured = await unitCostsFromOptimizations(workspace);
  return {
    triggerRunUsd: simulated.agent ? 0 : measured.triggerRunUsd,
    improverCallUsd: simulated.improver ? 0 : measured.improverCallUsd,
    source: measured.source,
  };
}

export interface OptimizePlan {
  skill: string;
  train: TriggerQuery[];
  test: TriggerQuery[];
  estimate: OptimizeEstimate;
  /** The longest the loop could take: every evaluation's trigger runs in waves, then the improver's call. */
  wallSeconds: number;
  unitSeconds: UnitSeconds;
  concurrency: number;
  /** Replay on the train runs (on by default when possible): captures, replayed requests, agent runs at most. */
  screen?: ScreenForecast;
  /** Why replay would not screen the train runs (`--screen none`, no API key, an agent without replay). */
  screenOff?: string;
  /** Replay would make each test query's first run too (3 runs or more). */
  screenTestFirstRuns?: boolean;
}

// The screen the train runs would get; an agent that cannot be had (no login) leaves it to the default's reason.
async function plannedScreen(options: OptimizeOptions, prepared: PreparedOptimize) {
  if (options.screen?.mode === "none")
    // Stryker disable next-line StringLiteral,BooleanLiteral: equivalent, a screen of none never looks at the agent
    return optimizeScreen(options.screen, { name: "", simulated: true });
  const agent = await options
    .createAgent({ skill: prepared.skill, suite: prepared.suite })
    .catch(() => undefined);
  // Stryker disable next-line BooleanLiteral: equivalent, a plan shows only why replay is off, not whether it was asked for
  if (!agent) return { setting: { kind: "none" as const, asked: false, off: "the agent could not be had" } };
  return optimizeScreen(options.screen, agent);
}

/** What `optimize --dry-run` prints: the split and the most the loop could start and cost, starting nothing. */
export async function planOptimize(options: OptimizeOptions, simulated: boolean): Promise<OptimizePlan> {
  const prepared = await prepareOptimize(options);
  const unit = await unitCostsFor(prepared.workspace, { agent: simulated, improver: simulated });
  const estimate = estimateOptimize({
    queries: prepared.queries.length,
    runs: options.runs,
    maxIterations: options.maxIterations,
    unit,
  });
  const unitSeconds = await unitSecondsFromHistory(prepared.workspace, simulated);
  const perEvaluation = estimateWallSeconds(
    { agentRuns: 0, judgeCalls: 0, triggerRuns: estimate.queries * estimate.runs },
    options.concurrency,
    unitSeconds,
  );
  const screening = await plannedScreen(options, prepared);
  const screen = screening.screen
    ? screenForecast({
        runs: estimate.triggerRuns,
        screened:
          estimate.evaluations *
          (prepared.split.train.length * options.runs +
            (testFirstRunScreened(options.runs) ? prepared.split.test.length : 0)),
        keys: estimate.evaluations,
      })
    : undefined;
  return {
    skill: prepared.skill.name,
    ...(screen ? { screen } : {}),
    ...(screening.setting.off ? { screenOff: screening.setting.off } : {}),
    ...(screen && testFirstRunScreened(options.runs) ? { screenTestFirstRuns: true } : {}),
    train: prepared.split.train.map((i) => prepared.queries[i]!),
    test: prepared.split.test.map((i) => prepared.queries[i]!),
    estimate,
    // An improver call takes about as long as a judge call.
    wallSeconds: estimate.evaluations * perEvaluation + estimate.improverCalls * unitSeconds.judgeCall,
    unitSeconds,
    concurrency: options.concurrency,
  };
}
