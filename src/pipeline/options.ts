import type { Agent } from "../agents/agent.js";
import type { ExpectationGrader } from "../grade/index.js";
import type { Budget } from "../run/budget.js";
import type { EvalOptions, RunReporter } from "../run/index.js";
import type { RunOptions } from "../run/options.js";
import type { Skill } from "../skill/index.js";
import type { Suite } from "../suite/index.js";
import type { ConditionSets, TriggerReporter } from "../triggers/index.js";
import type { ScreenOptions } from "../triggers/replay/index.js";
import type { Gates } from "./gates.js";
import type { Stage } from "./stage.js";

export interface PipelineOptions extends Omit<RunOptions, "createAgent" | "budget"> {
  /** Run one stage alone (`eval` or `triggers` over several models); both when absent. */
  stage?: Stage;
  baseline: string;
  only?: string[];
  triggerRuns: number;
  threshold: number;
  triggerTimeoutSeconds: number;
  description?: string;
  withSkills?: string[];
  /** Folders of skill folders installed beside the skill in trigger runs (`--installed`). */
  installed?: string[];
  /** `--conditions`: trigger runs in the clean room, under the given conditions, or both side by side. */
  conditions?: ConditionSets;
  /** `--context`: the prior conversation (a JSON file) each trigger run continues. */
  context?: string;
  /** Every trigger query gets all its runs (`--all-runs`) instead of stopping once its verdict is settled. */
  allRuns?: boolean;
  /** `--screen replay`: trigger runs screened by replaying the agent's captured first request. */
  screen?: ScreenOptions;
  grade: boolean;
  /** `--adaptive`: more paired runs for evals whose with/without difference is uncertain, up to `maxRuns`. */
  adaptive?: EvalOptions["adaptive"];
  gates: Gates;
  /** The smallest lift worth a verdict in benchmark.json (`--effect-floor`); default 0.05. */
  effectFloor?: number;
  maxCostUsd?: number;
  /** Continue the latest eval iteration even if its plan differs (finished runs, eval and trigger, are kept). */
  resume?: boolean;
  /** Write into this iteration folder (one agent's, in a run of several) instead of choosing one. */
  into?: { dir: string; number: number };
  /** A spending limit shared with other pipelines (the agents of one run); else one from `maxCostUsd`. */
  budget?: Budget;
  keepWorkspaces?: boolean;
  reporter?: RunReporter;
  triggerReporter?: TriggerReporter;
  /** Made after every input was checked; `wantsJudge` says whether some eval has expectations to grade. */
  createAgent: (inputs: { skill: Skill; suite: Suite; wantsJudge: boolean }) => Promise<Agent>;
  createGrader: () => Promise<ExpectationGrader>;
  onGradingError?: (runDir: string, error: unknown) => void;
  /** A run that finished earlier without a grading was graded on resume. */
  onGraded?: (runDir: string) => void;
}

/** What `run` plans, as far as the store forecast reads it: what names the planned runs, not how they are made. */
export type PipelineForecastOptions = Omit<
  PipelineOptions,
  | "inputs"
  | "adaptive"
  | "gates"
  | "maxCostUsd"
  | "resume"
  | "into"
  | "budget"
  | "keepWorkspaces"
  | "reporter"
  | "triggerReporter"
  | "createGrader"
  | "onGradingError"
  | "onGraded"
>;
