import { z } from "zod";

/** A fraction between 0 and 1, such as a pass rate. */
export const Rate = z.number().min(0).max(1);

/** A whole number of things: expectations, runs, tokens, tool calls. */
export const Count = z.number().int().nonnegative();

/** A duration or an amount that cannot be negative. */
export const NonNegative = z.number().nonnegative();

/** An ISO 8601 timestamp as written by the tool that made the file; kept as text. */
export const Timestamp = z.string().min(1);

/** A 0–100 score, as used by the tune loop's rubric. */
export const Score100 = z.number().min(0).max(100);
