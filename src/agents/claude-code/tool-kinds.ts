import type { ToolKind } from "../tool-kind.js";

const TOOL_KINDS: Record<string, ToolKind> = {
  Bash: "shell",
  BashOutput: "shell",
  KillShell: "shell",
  Read: "read",
  Write: "write",
  Edit: "edit",
  MultiEdit: "edit",
  NotebookEdit: "edit",
  Glob: "search",
  Grep: "search",
  WebSearch: "search",
  Skill: "skill",
};

/** The normalised kind of a Claude Code tool, or undefined when the name is none of its tools. */
export function claudeToolKind(name: string): ToolKind | undefined {
  return Object.hasOwn(TOOL_KINDS, name) ? TOOL_KINDS[name] : undefined;
}
