import { z } from "zod";
import { Rate, Score100, Timestamp } from "./primitives.js";

export const GradingResult = z.enum(["baseline", "won", "lost", "tie"]);
export type GradingResult = z.infer<typeof GradingResult>;

export const HistoryIteration = z.looseObject({
  /** v0, v1, … */
  version: z.string().min(1),
  parent: z.string().nullable(),
  expectation_pass_rate: Rate,
  grading_result: GradingResult,
  is_current_best: z.boolean(),
  /** Ours: the tune loop's 0–100 composite score of this version. */
  score: Score100.optional(),
});
export type HistoryIteration = z.infer<typeof HistoryIteration>;

// history.json at the workspace root (skill-creator's Improve mode, our tune loop).
export const History = z
  .looseObject({
    started_at: Timestamp,
    skill_name: z.string(),
    current_best: z.string(),
    iterations: z.array(HistoryIteration),
  })
  .superRefine((history, ctx) => {
    const versions = new Map<string, number>();
    history.iterations.forEach((iteration, i) => {
      const first = versions.get(iteration.version);
      if (first !== undefined)
        ctx.addIssue({
          code: "custom",
          path: ["iterations", i, "version"],
          message: `duplicate version "${iteration.version}" (first used by iterations[${first}])`,
        });
      else versions.set(iteration.version, i);
      if (iteration.is_current_best && iteration.version !== history.current_best)
        ctx.addIssue({
          code: "custom",
          path: ["iterations", i, "is_current_best"],
          message: `is true but current_best is "${history.current_best}"`,
        });
    });
    if (history.iterations.length > 0 && !versions.has(history.current_best))
      ctx.addIssue({
        code: "custom",
        path: ["current_best"],
        message: `"${history.current_best}" is not the version of any iteration`,
      });
  });
export type History = z.infer<typeof History>;
