import type { z } from "zod";
import { checkTypes } from "../contracts/checks.js";

const fieldHints: Record<string, string> = {
  id: 'give each eval its own `id`: an integer, or a name such as "empty-input"',
  prompt: "write the task the agent is given as a non-empty string",
  expected_output: "describe the expected result in one string",
  files: 'list input files as paths relative to the skill folder, e.g. ["evals/files/input.csv"]',
  expectations: 'write a list of statements to grade, e.g. ["The summary names the file"]',
  assertions: 'write a list of statements to grade, e.g. ["The summary names the file"]',
  timeout: "give the timeout in seconds, as a number above 0",
  checks: 'write a list of typed checks, e.g. [{"type": "file_exists", "path": "out.txt"}]',
  evals: 'write `"evals": [{"id": 1, "prompt": "…", "expectations": ["…"]}]`',
  skill_name: "write the skill's name as a string, or remove the field",
  max_output: 'write a size as a string, e.g. "500MB" or "1GB"',
  max_output_file: 'write a size as a string, e.g. "100MB"',
  max_output_files: "write a whole number of files above 0, e.g. 20000",
  query: "write the user's message as a non-empty string",
  should_trigger: "write true or false, without quotes",
  type: `use one of: ${checkTypes.join(", ")}`,
};

// Every schema error gets a next step: a custom issue's own hint, else one for the field, else one for the kind of error.
export function hintFor(issue: z.core.$ZodIssue, value: unknown, message: string): string {
  const own = issue.code === "custom" ? (issue.params as { hint?: unknown } | undefined)?.hint : undefined;
  if (typeof own === "string") return own;
  const last = issue.path[issue.path.length - 1];
  const parent = issue.path[issue.path.length - 2];
  if (typeof last === "number" && (parent === "expectations" || parent === "assertions"))
    return 'write each as a plain sentence, or as {"text": …}';
  if (issue.path.length === 0) return topLevelHint(issue);
  if (issue.code === "invalid_type" && typeof value === "string" && value.trim() !== "") {
    if (issue.expected === "number" && !Number.isNaN(Number(value)))
      return "remove the quotes around the number";
    if (issue.expected === "boolean" && (value === "true" || value === "false"))
      return "remove the quotes around true or false";
  }
  const key = typeof last === "string" ? last : undefined;
  if (key !== undefined && fieldHints[key] !== undefined) return fieldHints[key];
  if (key !== undefined && message.startsWith("required")) return `add \`${key}\``;
  if (key !== undefined) return `correct \`${key}\` as the message says, or remove it if it is optional`;
  return "correct this entry as the message says, or remove it";
}

function topLevelHint(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && issue.expected === "array")
    return 'a trigger file is a list: [{"query": "…", "should_trigger": true}]';
  if (issue.code === "invalid_type" && issue.expected === "object")
    return 'an evals file is an object: {"evals": [{"id": 1, "prompt": "…"}]}';
  return "correct the file as the message says";
}
