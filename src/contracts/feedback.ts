import { z } from "zod";
import { Timestamp } from "./primitives.js";

/** Statuses the viewer writes; other strings are kept. */
export const feedbackStatuses = ["in_progress", "complete"] as const;

/** A reviewer's word on one graded expectation of the run: the grade is right, or it is wrong. */
export const gradeMarks = ["right", "wrong"] as const;
export const GradeMark = z.looseObject({
  /** The expectation's text, as grading.json has it. */
  text: z.string().min(1),
  verdict: z.enum(gradeMarks),
});
export type GradeMark = z.infer<typeof GradeMark>;

export const Review = z.looseObject({
  /** The run folder's path under the iteration, with separators replaced by "-". */
  run_id: z.string().min(1),
  feedback: z.string(),
  timestamp: Timestamp,
  /** Optional: grades of this run the reviewer marked right or wrong (`skillgym judges` measures judges by them). */
  grades: z.array(GradeMark).optional(),
});
export type Review = z.infer<typeof Review>;

// feedback.json in an iteration folder, written by the review viewer.
export const Feedback = z.looseObject({
  reviews: z.array(Review),
  status: z.string().optional(),
});
export type Feedback = z.infer<typeof Feedback>;
