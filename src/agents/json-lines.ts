import type { AgentEvent } from "./events.js";

// How every adapter reads its agent's JSON-lines stream, one line at a time.

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** One line as a JSON object, or the events that say why it is none (a blank line: no event). */
export function jsonLineObject(line: string): Json | AgentEvent[] {
  const trimmed = line.trim();
  if (!trimmed) return [];
  let data: unknown;
  try {
    data = JSON.parse(trimmed);
  } catch {
    return [{ kind: "unknown", type: "non-json" }];
  }
  return isObject(data) ? data : [{ kind: "unknown", type: "non-object" }];
}
