import { z } from "zod";
import { Timestamp } from "./primitives.js";

/** Statuses the viewer writes; other strings are kept. */
export const feedbackStatuses = ["in_progress", "complete"] as const;

export const Review = z.looseObject({
  /** The run folder's path under the iteration, with separators replaced by "-". */
  run_id: z.string().min(1),
  feedback: z.string(),
  timestamp: Timestamp,
});
export type Review = z.infer<typeof Review>;

// feedback.json in an iteration folder, written by the review viewer.
export const Feedback = z.looseObject({
  reviews: z.array(Review),
  status: z.string().optional(),
});
export type Feedback = z.infer<typeof Feedback>;
