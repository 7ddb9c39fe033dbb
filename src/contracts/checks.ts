import { z } from "zod";

// Structured expectations graded without a model; each becomes one grading.json expectation.
export const FileExistsCheck = z.object({
  type: z.literal("file_exists"),
  path: z.string().min(1),
  description: z.string().optional(),
});

export const FileContainsCheck = z.object({
  type: z.literal("file_contains"),
  path: z.string().min(1),
  /** A JavaScript regular expression source. */
  pattern: z.string().min(1),
  flags: z
    .string()
    .regex(/^[dgimsuvy]*$/, "regex flags may only be d, g, i, m, s, u, v, y")
    .optional(),
  /** When true the check passes only if the pattern is NOT found. */
  negate: z.boolean().optional(),
  description: z.string().optional(),
});

export const FileUnchangedCheck = z.object({
  type: z.literal("file_unchanged"),
  path: z.string().min(1),
  description: z.string().optional(),
});

export const CommandCheck = z.object({
  type: z.literal("command"),
  run: z.string().min(1),
  expect_exit: z.number().int().optional(),
  timeout: z.number().positive().optional(),
  /** false: run outside the sandbox even when the run was sandboxed (a check that needs the network or the user's files). */
  sandbox: z.boolean().optional(),
  description: z.string().optional(),
});

export const SkillInvokedCheck = z.object({
  type: z.literal("skill_invoked"),
  /** Defaults to the skill under test. */
  skill: z.string().optional(),
  /** When false the check passes only if the skill was NOT invoked. */
  expected: z.boolean().optional(),
  description: z.string().optional(),
});

export const ToolCalledCheck = z.object({
  type: z.literal("tool_called"),
  name: z.string().min(1),
  min: z.number().int().nonnegative().optional(),
  max: z.number().int().nonnegative().optional(),
  description: z.string().optional(),
});

export const Check = z.discriminatedUnion("type", [
  FileExistsCheck,
  FileContainsCheck,
  FileUnchangedCheck,
  CommandCheck,
  SkillInvokedCheck,
  ToolCalledCheck,
]);
export type Check = z.infer<typeof Check>;

export const checkTypes = [
  "file_exists",
  "file_contains",
  "file_unchanged",
  "command",
  "skill_invoked",
  "tool_called",
] as const;
