import type { AgentEvent } from "../agents/events.js";
import { skillLoadOf } from "../agents/registry.js";

export interface Detection {
  triggered: boolean;
  /** Skills loaded in the run, in order, ours under its real name. */
  loaded: string[];
}

/**
 * Triggered = the run loaded our synthetic skill at any point (by the skill tool or a read of its SKILL.md), also after
 * looking around first or after another skill loaded first (a meta-skill that routes to ours).
 */
export function detectTrigger(
  events: readonly AgentEvent[],
  syntheticName: string,
  realName: string,
): Detection {
  const loaded: string[] = [];
  let triggered = false;
  for (const event of events) {
    const skill = skillLoadOf(event);
    if (skill === undefined) continue;
    if (skill === syntheticName) {
      triggered = true;
      loaded.push(realName);
    } else loaded.push(skill);
  }
  return { triggered, loaded: [...new Set(loaded)] };
}

/** Skills that loaded in a run where ours did not: the ones that took the query. */
export function stolenBy(detection: Detection, realName: string): string[] {
  return detection.triggered ? [] : detection.loaded.filter((s) => s !== realName);
}
