import { z } from "zod";
import { BaselineConfiguration, DeltaEstimate, Verdict } from "./benchmark.js";
import { EvalId } from "./evals.js";
import { Count, NonNegative, Rate, Timestamp } from "./primitives.js";

/** An agent's name, which is also its folder's: no separators, no dots in front. */
export const AgentName = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/i, "an agent name such as codex");

// iteration.json at the root of an iteration that ran several agents: each agent's own iteration lives in
// `iteration-<N>/<agent>/` (an ordinary iteration folder); this file names them and what they were asked to run.
// It has no `plan`, so tools that read one agent's iteration.json never mistake the root for one.
export const AgentsIterationRecord = z.looseObject({
  skill_name: z.string(),
  skill_path: z.string(),
  skill_hash: z.string(),
  status: z.enum(["running", "complete", "interrupted"]),
  started_at: Timestamp,
  finished_at: Timestamp.optional(),
  simulated: z.boolean().optional(),
  /**
   * The sub-folders, in the order they ran: one per agent, or per model (`--model a,b`), or per agent and model.
   * Named for the agents when they alone differ.
   */
  agents: z.array(AgentName).min(2),
  /** What each sub-folder ran, when models were named: its agent and model. */
  lanes: z
    .array(z.looseObject({ dir: AgentName, agent: AgentName, model: z.string().optional() }))
    .optional(),
  /** What every agent was asked to run; an interrupted iteration resumes only with the same request. */
  request: z.looseObject({
    evals: z.array(EvalId),
    runs_per_configuration: z.number().int().positive(),
    /** without_skill, none, or the absolute path of the earlier version run as old_skill. */
    baseline: z.string(),
    trigger_queries: Count,
    trigger_runs: z.number().int().positive(),
  }),
});
export type AgentsIterationRecord = z.infer<typeof AgentsIterationRecord>;

export const AgentTriggerScores = z.looseObject({
  precision: Rate.nullable(),
  recall: Rate.nullable(),
  accuracy: Rate.nullable(),
  passed: Count,
  total: Count,
});
export type AgentTriggerScores = z.infer<typeof AgentTriggerScores>;

// One agent's (or model's) line of the matrix: what its folder's benchmark.json and trigger-results.json say.
export const AgentMatrixRow = z.looseObject({
  agent: AgentName,
  version: z.string().optional(),
  /** The model asked for (`--model`); absent when the agent ran its default. */
  model: z.string().optional(),
  /** The agent's iteration folder, relative to the iteration root. */
  dir: z.string().min(1),
  status: z.enum(["complete", "interrupted", "not_run"]),
  with_skill_pass_rate: Rate.nullable(),
  baseline_configuration: BaselineConfiguration.nullable(),
  baseline_pass_rate: Rate.nullable(),
  /** with_skill minus baseline, with its interval (paired bootstrap over evals); null without a baseline. */
  delta_pass_rate: DeltaEstimate.nullable(),
  /** The skill's verdict at the effect floor (benchmark.json's), when there is an interval. */
  verdict: Verdict.optional(),
  /** True when the skill is redundant on this agent and model: no effect while the baseline already passes. */
  redundant: z.boolean().optional(),
  graded_runs: Count,
  errored_runs: Count,
  triggers: AgentTriggerScores.nullable(),
  cost_usd: NonNegative,
  wall_seconds: NonNegative,
});
export type AgentMatrixRow = z.infer<typeof AgentMatrixRow>;

// matrix.json at the iteration root: the agents side by side.
export const AgentMatrix = z.looseObject({
  skill_name: z.string(),
  timestamp: Timestamp,
  simulated: z.boolean(),
  agents: z.array(AgentMatrixRow),
});
export type AgentMatrix = z.infer<typeof AgentMatrix>;
