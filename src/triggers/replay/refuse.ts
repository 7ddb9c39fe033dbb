import type { Agent } from "../../agents/agent.js";
import { SkillgymError } from "../../errors.js";
import { agentsWithReplay, replayAdapterFor } from "./adapters.js";

/** Throws the usage error (exit 2) for `--screen replay` with an agent it cannot serve, before any run starts. */
export function screenRefused(agent: Pick<Agent, "name">): void {
  if (!replayAdapterFor(agent.name))
    throw new SkillgymError("USAGE", `--screen replay is not available with ${agent.name} yet`, {
      hint: `agents with replay: ${agentsWithReplay.join(", ")}; leave --screen out to run the agent for every query`,
    });
}
