import { z } from "zod";
import { Count } from "./primitives.js";

/** Calls per tool name, e.g. `{ "Read": 5, "Bash": 8 }`. */
export const ToolCallCounts = z.record(z.string(), Count);
export type ToolCallCounts = z.infer<typeof ToolCallCounts>;

// metrics.json in a run's outputs/ (skill-creator's executor); also grading.json's `execution_metrics`.
export const Metrics = z.looseObject({
  tool_calls: ToolCallCounts.optional(),
  total_tool_calls: Count.optional(),
  total_steps: Count.optional(),
  files_created: z.array(z.string()).optional(),
  errors_encountered: Count.optional(),
  output_chars: Count.optional(),
  transcript_chars: Count.optional(),
});
export type Metrics = z.infer<typeof Metrics>;
