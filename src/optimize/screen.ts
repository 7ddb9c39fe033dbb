import type { Agent } from "../agents/agent.js";
import type { OptimizeResults } from "../contracts/optimize-results.js";
import { replayPossible, type ScreenOptions, screenRefused } from "../triggers/replay/index.js";

/**
 * `optimize`'s screen: replay asked for (`--screen replay`), turned off (`--screen none`), or left to the default:
 * replay on the train queries' runs whenever it is possible.
 */
export type OptimizeScreenRequest =
  | { mode: "replay"; screen: ScreenOptions }
  | { mode: "default"; screen: ScreenOptions }
  | { mode: "none" };

/** What results.json says of it: whether replay screened the train runs, and why not when it did not. */
export type OptimizeScreenSetting = NonNullable<OptimizeResults["screen"]>;

/**
 * The screen of the train runs, decided once the agent is known. Asked-for replay refuses an agent without it
 * (exit 2, before any run); the default turns itself off instead, saying why.
 */
export function optimizeScreen(
  request: OptimizeScreenRequest | undefined,
  agent: Pick<Agent, "name" | "sandboxed" | "simulated">,
): { screen?: ScreenOptions; setting: OptimizeScreenSetting } {
  const asked = request ?? { mode: "default" as const, screen: { kind: "replay" as const } };
  if (asked.mode === "none") return { setting: { kind: "none", asked: true, off: "--screen none" } };
  if (asked.mode === "replay") {
    screenRefused(agent);
    return { screen: asked.screen, setting: { kind: "replay", asked: true } };
  }
  const possible = replayPossible(agent, asked.screen.env);
  if (!possible.possible) return { setting: { kind: "none", asked: false, off: possible.reason } };
  return { screen: asked.screen, setting: { kind: "replay", asked: false } };
}
