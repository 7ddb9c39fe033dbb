import type { ResultStore } from "../../store/index.js";
import type { TriggerContext } from "../run-trigger.js";
import { replayKey, replayKeyNames } from "./adapter.js";
import { replayAdapterFor } from "./adapters.js";
import { captureFirstRequest } from "./capture.js";
import type { ReplayTarget } from "./send-replay.js";

/** `--screen replay` and `--screen-verify P`. */
export interface ScreenOptions {
  kind: "replay";
  /** Also run this percentage of the replayed runs through the agent and compare. */
  verifyPercent?: number;
  /** Where the provider's API key is read; default the process's environment. */
  env?: NodeJS.ProcessEnv;
  /** Screen only the runs of these queries (by place in the suite); the others go to the agent. Absent: every run. */
  queries?: readonly number[];
  /**
   * Screen the first run of these queries too (by place in the suite); their later runs stay the agent's, so every
   * verdict of theirs holds an agent's run, and the agents' runs outvote a replay they disagree with.
   */
  firstRunOf?: readonly number[];
}

export interface ReplayerInput {
  /** What the capture run installs and where it starts: the conditions every screened run shares. */
  ctx: TriggerContext;
  screen: ScreenOptions;
  description: string;
  iterationDir: string;
  store?: ResultStore;
  /** The capture's store key, when the caller keys it otherwise than by the skill and its description (a catalog). */
  captureKey?: string;
  warn?: (message: string) => void;
}

// The simulator takes any key; the agent's runs under it are given this one.
export const SIMULATOR_KEY = "sk-skillgym-simulator";

/**
 * The target replays are sent to, made once on first use: the provider's key and the captured first request (from
 * the store, else by one capture run). Undefined when replay is off, with the reason warned and kept in `state.off`.
 */
export function openReplayer(input: ReplayerInput) {
  const { ctx } = input;
  const adapter = replayAdapterFor(ctx.agent.name);
  const state: { off?: string; captured: boolean } = { captured: false };
  const turnOff = (reason: string) => {
    state.off = reason;
    input.warn?.(`--screen replay: ${reason}; the agents decide every run`);
  };
  let target: Promise<ReplayTarget | undefined> | undefined;
  const ready = () => {
    target ??= (async () => {
      if (!adapter) return void turnOff(`${ctx.agent.name} has no replay yet`);
      const apiKey = ctx.agent.simulated
        ? SIMULATOR_KEY
        : replayKey(adapter, input.screen.env ?? process.env);
      if (!apiKey)
        return void turnOff(
          `replay sends requests to the API itself and needs an API key (${replayKeyNames(adapter)}); a subscription login is the agent's alone`,
        );
      const got = await captureFirstRequest({
        ctx,
        adapter,
        description: input.description,
        iterationDir: input.iterationDir,
        ...(input.store ? { store: input.store } : {}),
        ...(input.captureKey ? { key: input.captureKey } : {}),
      });
      if (!got.capture) return void turnOff(got.reason);
      state.captured = got.captured;
      return {
        adapter,
        capture: got.capture,
        baseUrl: ctx.agent.apiBaseUrl ?? "",
        apiKey,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      };
    })();
    return target;
  };
  return { ready, state };
}
