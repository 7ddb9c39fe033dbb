import type { ToolPolicy } from "../agent.js";

/** Tools approved without a prompt in an eval run; works as root, unlike bypass mode. */
export const defaultAllowedTools = [
  "Bash",
  "Edit",
  "MultiEdit",
  "Write",
  "Read",
  "Glob",
  "Grep",
  "Skill",
  "NotebookEdit",
  "TodoWrite",
  "Task",
  "Agent",
];

export const readOnlyAllowedTools = ["Read", "Glob", "Grep"];
export const readOnlyDisallowedTools = [
  "Bash",
  "Edit",
  "Write",
  "NotebookEdit",
  "MultiEdit",
  "WebFetch",
  "WebSearch",
];

export interface ClaudeArgsRequest {
  prompt: string;
  model?: string | undefined;
  streamUsage?: boolean | undefined;
  tools?: ToolPolicy | undefined;
  systemPrompt?: string | undefined;
  /** Continue this session of the run's home (a prior conversation written there). */
  resume?: string | undefined;
}

/** The command line of one headless run; `allowedTools` is the eval set (a read-only run has its own). */
export function claudeArgs(
  request: ClaudeArgsRequest,
  allowedTools: string[] = defaultAllowedTools,
): string[] {
  const readOnly = request.tools === "read-only";
  const args = [
    "-p",
    request.prompt,
    "--output-format",
    "stream-json",
    "--verbose",
    "--allowedTools",
    (readOnly ? readOnlyAllowedTools : allowedTools).join(" "),
  ];
  if (request.model) args.push("--model", request.model);
  if (request.streamUsage) args.push("--include-partial-messages");
  if (readOnly) args.push("--disallowedTools", readOnlyDisallowedTools.join(" "));
  if (request.systemPrompt !== undefined) args.push("--append-system-prompt", request.systemPrompt);
  if (request.resume !== undefined) args.push("--resume", request.resume);
  return args;
}

/** A read-only run with an extra system prompt, as a judge asks for one. */
export function readOnlyArgs(
  request: { prompt: string; system: string },
  model: string | undefined,
): string[] {
  return claudeArgs({ prompt: request.prompt, model, tools: "read-only", systemPrompt: request.system });
}
