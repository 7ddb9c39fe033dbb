import { z } from "zod";
import { Count, NonNegative, Timestamp } from "./primitives.js";

// timing.json, beside a run's outputs/ (skill-creator). Every field is optional: tools capture what they can.
export const Timing = z.looseObject({
  total_tokens: Count.optional(),
  duration_ms: NonNegative.optional(),
  total_duration_seconds: NonNegative.optional(),
  executor_start: Timestamp.optional(),
  executor_end: Timestamp.optional(),
  executor_duration_seconds: NonNegative.optional(),
  grader_start: Timestamp.optional(),
  grader_end: Timestamp.optional(),
  grader_duration_seconds: NonNegative.optional(),
  // Ours, from the agent's `result` line.
  input_tokens: Count.optional(),
  output_tokens: Count.optional(),
  cost_usd: NonNegative.optional(),
  num_turns: Count.optional(),
  model: z.string().optional(),
});
export type Timing = z.infer<typeof Timing>;
