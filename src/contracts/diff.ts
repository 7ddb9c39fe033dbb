import { z } from "zod";
import { EvalId } from "./evals.js";
import { Count, NonNegative, Rate } from "./primitives.js";

export const changes = ["improved", "regressed", "unchanged", "inconclusive"] as const;

/** How one eval, query or the whole skill moved from iteration A to iteration B, held against the effect floor. */
export const Change = z.enum(changes);
export type Change = z.infer<typeof Change>;

/** B − A with its interval; null when either side has too few graded runs to draw one. */
export const DifferenceInterval = z.looseObject({
  estimate: z.number(),
  ci_low: z.number(),
  ci_high: z.number(),
  confidence: z.number().gt(0).lt(1),
});
export type DifferenceInterval = z.infer<typeof DifferenceInterval>;

export const EvalDiff = z.looseObject({
  eval_id: EvalId,
  eval_name: z.string().optional(),
  /** Mean with_skill pass rate of the graded runs in each iteration; null when none was graded. */
  a_pass_rate: Rate.nullable(),
  b_pass_rate: Rate.nullable(),
  a_runs: Count,
  b_runs: Count,
  difference: DifferenceInterval.nullable(),
  change: Change,
  /** Inconclusive only: roughly how many runs a side would likely decide it. */
  runs_to_decide: z.number().int().positive().optional(),
  /** Why there is no interval, when there is none. */
  note: z.string().optional(),
});
export type EvalDiff = z.infer<typeof EvalDiff>;

export const QueryDiff = z.looseObject({
  query: z.string(),
  should_trigger: z.boolean(),
  a_rate: Rate.nullable(),
  b_rate: Rate.nullable(),
  a_pass: z.boolean().nullable(),
  b_pass: z.boolean().nullable(),
  /** By the verdict: a query that passed and now fails regressed, one that failed and now passes improved. */
  change: Change,
});
export type QueryDiff = z.infer<typeof QueryDiff>;

/** One agent's comparison (or the only one, for ordinary iterations). */
export const DiffPart = z.looseObject({
  /** The agent, in iterations that ran several; absent otherwise. */
  agent: z.string().optional(),
  overall: z
    .looseObject({
      difference: DifferenceInterval.nullable(),
      change: Change,
      runs_to_decide: z.number().optional(),
    })
    .nullable(),
  evals: z.array(EvalDiff),
  /** Evals in only one of the two iterations: not compared. */
  only_in_a: z.array(EvalId),
  only_in_b: z.array(EvalId),
  queries: z.array(QueryDiff),
  queries_only_in_a: z.array(z.string()),
  queries_only_in_b: z.array(z.string()),
});
export type DiffPart = z.infer<typeof DiffPart>;

// diff.json: `skillgym diff <iteration-a> <iteration-b>`.
export const DiffReport = z.looseObject({
  a: z.string(),
  b: z.string(),
  /** The pass-rate difference below which a move is not reported. */
  effect_floor: NonNegative,
  method: z.string(),
  parts: z.array(DiffPart),
  /** How many evals and queries regressed, over all parts. */
  regressions: Count,
});
export type DiffReport = z.infer<typeof DiffReport>;
