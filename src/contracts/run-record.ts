import { z } from "zod";
import { Configuration } from "./benchmark.js";
import { MergedFrom, MergePartial, RateLimits, ShardInfo } from "./shard.js";

// Ours: how a run ended. Written into timing.json beside skill-creator's fields, so a resumed iteration knows it.
export const RunOutcome = z.enum([
  "success",
  "agent_error",
  "auth_error",
  "rate_limited",
  "overloaded",
  "server_error",
  "timeout",
  "crash",
  "cancelled",
  "stopped",
  // The run's outputs went over --max-output, --max-output-file or --max-output-files: nothing was collected.
  "output_limit",
]);
export type RunOutcomeName = z.infer<typeof RunOutcome>;

export type ConfigurationName = z.infer<typeof Configuration>;

export const RunStatus = z.looseObject({
  outcome: RunOutcome,
  error: z.string().optional(),
  attempts: z.number().int().positive(),
  simulated: z.boolean().optional(),
});
export type RunStatus = z.infer<typeof RunStatus>;

// iteration.json: what an iteration was asked to run, so an interrupted one can be resumed in place.
export const IterationRecord = z.looseObject({
  skill_name: z.string(),
  skill_path: z.string(),
  skill_hash: z.string(),
  status: z.enum(["running", "complete", "interrupted"]),
  started_at: z.string(),
  finished_at: z.string().optional(),
  simulated: z.boolean().optional(),
  /** Whether every agent run was inside the OS sandbox (`--sandbox`); absent in iterations written before it. */
  sandbox: z.boolean().optional(),
  /** Under the simulator: its script file, or null when it ran without one (the runs then wrote nothing). */
  sim_script: z.string().nullable().optional(),
  model: z.string().optional(),
  /** The agent that ran (absent in iterations written before it was recorded: those were Claude Code's). */
  agent: z
    .looseObject({
      name: z.string(),
      version: z.string().optional(),
      /** How its runs were approved or sandboxed (Gemini CLI's tool policy, Codex's sandbox). */
      mode: z.string().optional(),
    })
    .optional(),
  /** The project copied into every workspace (`--project-root`), so a re-grade can rebuild a run's workspace. */
  project_root: z.string().optional(),
  /** The `--evals` path the iteration was run with, if any. */
  evals_path: z.string().optional(),
  plan: z.looseObject({
    evals: z.array(z.union([z.number().int(), z.string()])),
    configurations: z.array(Configuration),
    runs_per_configuration: z.number().int().positive(),
    baseline_skill_path: z.string().optional(),
  }),
  /** Written by `--shard i/n`: this iteration holds only that part of the plan. */
  shard: ShardInfo.optional(),
  /** Written by `skillgym merge`: the shards this iteration was merged from. */
  merged_from: MergedFrom.optional(),
  /** Written by `skillgym merge --partial`: the runs of the plan no shard finished. */
  partial: MergePartial.optional(),
  /** Present when the service answered 429: how often, and how far the concurrency fell and recovered. */
  rate_limits: RateLimits.optional(),
});
export type IterationRecord = z.infer<typeof IterationRecord>;

// trigger.json: what one trigger run found, beside its transcript; lets an interrupted trigger eval resume.
export const TriggerRun = z.looseObject({
  query: z.string(),
  should_trigger: z.boolean(),
  synthetic_name: z.string(),
  triggered: z.boolean(),
  /** Skills loaded during the run, in order; ours under its real name. */
  skills_loaded: z.array(z.string()),
  stolen_by: z.array(z.string()),
  outcome: RunOutcome,
  error: z.string().optional(),
  attempts: z.number().int().positive(),
  duration_ms: z.number().nonnegative(),
  model_requests: z.number().int().nonnegative().optional(),
  cost_usd: z.number().nonnegative().optional(),
  /**
   * "stream" when the run was stopped before its result line and its cost was priced from the streamed tokens;
   * "unknown" (and no cost_usd) when nothing could price it: no price for the model, or no tokens before the stop.
   */
  cost_source: z.enum(["stream", "unknown"]).optional(),
  simulated: z.boolean().optional(),
  /** The agent listed skills the run did not stage (activation.json names them). */
  contaminated: z.boolean().optional(),
  /**
   * `--screen replay`: "replay" when the verdict was read from the first turn of the agent's captured first request
   * sent again with this query; "agent" when the real agent ran (the first turn did not decide it, or it was checked).
   * Absent: a run made without `--screen` (by the agent), or served from the result store as it was stored.
   */
  decided_by: z.enum(["replay", "agent"]).optional(),
  /** `--screen-verify`: a replayed run also run by the agent, whose verdict is the one kept; whether the two agreed. */
  replay_agreed: z.boolean().optional(),
});
export type TriggerRun = z.infer<typeof TriggerRun>;

// triggers/plan.json: what a trigger eval was asked to run, so an interrupted one resumes only with the same inputs.
export const TriggerPlan = z.looseObject({
  skill_name: z.string(),
  skill_hash: z.string(),
  description: z.string(),
  queries: z.array(z.string()),
  runs_per_query: z.number().int().positive(),
  with_skills: z.array(z.string()),
  /** `--installed`: the library folders whose every skill was installed beside it. */
  installed: z.array(z.string()).optional(),
  /** `--project-root`: each run started in a copy of this project… */
  project_root: z.string().optional(),
  /** …whose copy had this tree hash (the result store's `project` key). */
  project_hash: z.string().optional(),
  /** `--context`: each run continued the prior conversation of this file, of this content hash. */
  context: z.string().optional(),
  context_hash: z.string().optional(),
  /** `--conditions clean,real`: the queries ran in the clean room (in `clean/`) and under the conditions given. */
  side_by_side: z.array(z.enum(["clean", "real"])).optional(),
  /** `--conditions clean`: the conditions given were left out; the runs were made in the clean room. */
  conditions: z.array(z.enum(["clean", "real"])).optional(),
  /** Every query got all its runs (`--all-runs`); absent or false: a query stopped once its verdict was settled. */
  all_runs: z.boolean().optional(),
  status: z.enum(["running", "complete", "interrupted"]),
  /** Written by `--shard i/n`: these trigger runs are only that part of the plan. */
  shard: ShardInfo.optional(),
  merged_from: MergedFrom.optional(),
  partial: MergePartial.optional(),
  rate_limits: RateLimits.optional(),
});
export type TriggerPlan = z.infer<typeof TriggerPlan>;
