import type { Agent } from "../../agents/agent.js";
import { replayKey, replayKeyNames } from "./adapter.js";
import { replayAdapterFor } from "./adapters.js";

export type ReplayPossible = { possible: true } | { possible: false; reason: string };

/**
 * Whether replay can screen this agent's runs without being asked to refuse: the agent has replay, and either runs
 * under the simulator or has its provider's API key. Where replay is on by default
 * (`optimize`'s train rounds), it is on exactly when this says so.
 */
export function replayPossible(
  agent: Pick<Agent, "name" | "simulated">,
  env: NodeJS.ProcessEnv = process.env,
): ReplayPossible {
  const adapter = replayAdapterFor(agent.name);
  if (!adapter) return { possible: false, reason: `${agent.name} has no replay yet` };
  if (!agent.simulated && !replayKey(adapter, env))
    return {
      possible: false,
      reason: `no API key (${replayKeyNames(adapter)}) for replay to send requests with`,
    };
  return { possible: true };
}
