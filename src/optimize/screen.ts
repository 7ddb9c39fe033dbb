import type { Agent } from "../agents/agent.js";
import type { OptimizeIteration, OptimizeResults } from "../contracts/optimize-results.js";
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

/**
 * Whether replay may make a test query's first run: only with 3 runs or more, where every test verdict still holds
 * two runs of the real agent once replay and agent disagree, and those outvote the replay when they agree.
 */
export function testFirstRunScreened(runs: number): boolean {
  return runs >= 3;
}

/** How replay decided one evaluation's runs: its train runs, and the test queries' first runs when it made them. */
export function replayDecided(replay: NonNullable<OptimizeIteration["replay"]>): string {
  const test =
    replay.test_first_runs !== undefined
      ? ` and ${replay.test_decided_by_replay ?? 0} of ${replay.test_first_runs} first test runs`
      : "";
  return `replay decided ${replay.decided_by_replay} of ${replay.train_runs} train runs${test}`;
}
