import { z } from "zod";

/** One turn of a prior conversation: who said it, and what. */
export const ContextTurn = z.strictObject({
  role: z.enum(["user", "assistant"]),
  content: z.string().min(1),
});
export type ContextTurn = z.infer<typeof ContextTurn>;

/**
 * `--context FILE`: a prior conversation each trigger run continues, through the agent's own way of resuming a session
 * (never pasted into the prompt). It starts with the user and alternates; the query is the next user turn, so the last
 * turn is the assistant's.
 */
export const PriorConversation = z
  .array(ContextTurn)
  .min(1)
  .superRefine((turns, ctx) => {
    turns.forEach((turn, i) => {
      const expected = i % 2 === 0 ? "user" : "assistant";
      if (turn.role !== expected)
        ctx.addIssue({
          code: "custom",
          path: [i, "role"],
          message: `expected "${expected}": the turns start with the user and alternate`,
        });
    });
    if (turns.at(-1)?.role !== "assistant")
      ctx.addIssue({
        code: "custom",
        path: [turns.length - 1, "role"],
        message: "the last turn must be the assistant's: the query is the user's next turn",
      });
  });
export type PriorConversation = z.infer<typeof PriorConversation>;
