import type { AgentEvent } from "../events.js";
import { parseStreamLine } from "./parse-stream.js";
import { skillLoadedBy } from "./skill-load.js";
import { claudeToolKind } from "./tool-kinds.js";

/** Gives a tool call its normalised kind and follows a call that loads a skill with its `skill_load` event. */
export function normaliseEvent(event: AgentEvent): AgentEvent[] {
  if (event.kind !== "tool_use") return [event];
  const skill = skillLoadedBy(event);
  const call: AgentEvent = { ...event, tool: claudeToolKind(event.name) ?? "other" };
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
