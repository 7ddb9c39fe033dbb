import type { AgentEvent, ToolKind } from "../events.js";
import { parseStreamLine } from "./parse-stream.js";
import { skillLoadedBy } from "./skill-load.js";

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

/** Gives a tool call its normalised kind and follows a call that loads a skill with its `skill_load` event. */
export function normaliseEvent(event: AgentEvent): AgentEvent[] {
  if (event.kind !== "tool_use") return [event];
  const skill = skillLoadedBy(event);
  const call: AgentEvent = { ...event, tool: TOOL_KINDS[event.name] ?? "other" };
  if (skill === undefined) return [call];
  return [
    call,
    { kind: "skill_load", skill, via: event.name === "Skill" ? "tool" : "read", toolUseId: event.id },
  ];
}

/** One line of Claude Code's stream-json as normalised events. */
export function parseEvents(line: string): AgentEvent[] {
  return parseStreamLine(line).flatMap(normaliseEvent);
}

/** A stored transcript.jsonl as normalised events (for run folders written before events.jsonl). */
export function parseTranscript(text: string): AgentEvent[] {
  return text.split("\n").flatMap(parseEvents);
}
