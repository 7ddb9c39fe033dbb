import type { TokenUsage } from "../../agents/events.js";

/** The model's answer to a replayed request: its text and its tool calls, in order; its model and tokens if given. */
export interface FirstTurn {
  text: string;
  calls: { name: string; input: Record<string, unknown> }[];
  model?: string;
  usage?: TokenUsage;
}

/** What a first turn says of a trigger run. */
export type FirstTurnVerdict =
  | { label: "triggered" }
  | { label: "stolen"; by: string[] }
  | { label: "not-triggered" }
  /** A shell call, a file read, a search…: only the real agent can tell what comes of it. */
  | { label: "undecided" };

/**
 * Our skill loaded by any call → triggered; every call loads another skill → stolen by them; no call at all, a text
 * answer → not triggered; anything else → undecided. `skillOf` is the agent's own rule for the skill a call loads.
 */
export function classifyFirstTurn(
  turn: FirstTurn,
  ours: string,
  skillOf: (call: FirstTurn["calls"][number]) => string | undefined,
): FirstTurnVerdict {
  if (turn.calls.length === 0) return { label: "not-triggered" };
  const loaded = turn.calls.map(skillOf);
  if (loaded.includes(ours)) return { label: "triggered" };
  if (loaded.every((s) => s !== undefined)) return { label: "stolen", by: [...new Set(loaded as string[])] };
  return { label: "undecided" };
}
