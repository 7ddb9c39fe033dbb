import { z } from "zod";
import { feedbackStatuses, gradeMarks } from "../contracts/feedback.js";
import { AgentName } from "../contracts/matrix.js";

export const maxFeedbackChars = 10_000;

// The body of POST /api/feedback: save one run's review, set the iteration's status, or both. Nothing else passes.
export const FeedbackRequest = z
  .strictObject({
    iteration: z.number().int().nonnegative(),
    /** In an iteration of several agents: whose run the review is about. */
    agent: AgentName.optional(),
    run_id: z.string().min(1).max(500).optional(),
    feedback: z.string().max(maxFeedbackChars, `at most ${maxFeedbackChars} characters`).optional(),
    status: z.enum(feedbackStatuses).optional(),
    /** Mark one of the run's grades right or wrong; null takes the mark back. */
    grade: z
      .strictObject({ text: z.string().min(1).max(maxFeedbackChars), verdict: z.enum(gradeMarks).nullable() })
      .optional(),
  })
  .superRefine((body, ctx) => {
    const aboutRun = body.feedback !== undefined || body.grade !== undefined;
    if ((body.run_id === undefined) !== !aboutRun) {
      ctx.addIssue({
        code: "custom",
        path: [body.run_id === undefined ? "run_id" : "feedback"],
        message: "run_id goes with feedback or a grade mark",
      });
    }
    if (body.run_id === undefined && body.status === undefined) {
      ctx.addIssue({ code: "custom", path: [], message: "expected run_id and feedback, or status" });
    }
  });
export type FeedbackRequest = z.infer<typeof FeedbackRequest>;

/** The reasons a body was refused, one line, naming the field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const where = issue.path.length ? issue.path.join(".") : "body";
      if (issue.code === "unrecognized_keys") return `${where}: unknown field(s) ${issue.keys.join(", ")}`;
      return `${where}: ${issue.message}`;
    })
    .join("; ");
}
