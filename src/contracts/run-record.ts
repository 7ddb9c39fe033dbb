import { z } from "zod";
import { Configuration } from "./benchmark.js";

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
  model: z.string().optional(),
  plan: z.looseObject({
    evals: z.array(z.union([z.number().int(), z.string()])),
    configurations: z.array(Configuration),
    runs_per_configuration: z.number().int().positive(),
    baseline_skill_path: z.string().optional(),
  }),
});
export type IterationRecord = z.infer<typeof IterationRecord>;
