import { z } from "zod";
import { EvalId } from "./evals.js";
import { Count, NonNegative, Rate, Timestamp } from "./primitives.js";

/** One eval run as two identical arms: how far they differed. */
export const NoiseEval = z.looseObject({
  eval_id: EvalId,
  eval_name: z.string().optional(),
  /** Paired interval of arm B − arm A; null with fewer than 2 paired runs. */
  ci_low: z.number().nullable(),
  ci_high: z.number().nullable(),
  /** The largest difference the interval allows: max(|ci_low|, |ci_high|). */
  spread: NonNegative.nullable(),
  /** What a comparison of these identical arms would have been called at the effect floor. */
  verdict: z.enum(["helps", "hurts", "no effect", "inconclusive"]).nullable(),
});
export type NoiseEval = z.infer<typeof NoiseEval>;

// noise.json, at the workspace's root: `skillgym noise <skill>`; later verdicts hold their lift against its spread.
export const NoiseReport = z.looseObject({
  measured_at: Timestamp,
  /** The A/A iteration the figures come from. */
  iteration_dir: z.string(),
  runs_per_arm: z.number().int().positive(),
  effect_floor: NonNegative,
  evals: z.array(NoiseEval),
  /** The largest difference two identical arms plausibly show over all evals: the A/A interval's widest end. */
  spread: NonNegative,
  /** Evals whose A/A comparison would have been called helps or hurts at the floor, over evals with a verdict. */
  false_calls: Count,
  false_call_rate: Rate.nullable(),
});
export type NoiseReport = z.infer<typeof NoiseReport>;
