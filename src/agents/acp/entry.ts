import { basename } from "node:path";
import { SIM_MODEL } from "../../contracts/sim-model.js";
import { SkillgymError } from "../../errors.js";
import type { Agent } from "../agent.js";
import type { AgentFactoryOptions } from "../factory-options.js";
import { geminiBuiltinSkills } from "../gemini/builtin-skills.js";
import { qwenProfile } from "../qwen-code/profile.js";
import { qwenBuiltinSkills } from "../qwen-code/skills.js";
import { createAcpAgent } from "./agent.js";
import { acpCommandOf } from "./command.js";
import { geminiProfile } from "./gemini-profile.js";
import { genericProfile } from "./generic-profile.js";
import { type ModelChoice, modelRefusal } from "./models.js";
import { probeModelChoice } from "./probe.js";
import type { AcpProfile } from "./profile.js";
import { parseAcpTranscript } from "./transcript.js";

/** The agents skillgym knows beyond the protocol, by their program's name: their home, simulator and skills. */
type Known = "gemini" | "qwen";

function knownAgent(program: string): Known | undefined {
  const name = basename(program).replace(/\.(c|m)?js$/, "");
  if (name === "gemini") return "gemini";
  if (name === "qwen" || name === "qwen-code") return "qwen";
  return undefined;
}

/** The name runs of `acp:<command…>` record, and the folder of its part in a run of several agents: `acp-<program>`. */
export function acpAgentName(value: string): string {
  const program = basename(acpCommandOf(value)[0]!)
    .replace(/\.(c|m)?js$/, "")
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "");
  return program ? `acp-${program}` : "acp";
}

function profileFor(words: readonly string[], options: AgentFactoryOptions): Promise<AcpProfile> {
  const known = knownAgent(words[0]!);
  if (known === "gemini") return geminiProfile(words, options);
  if (known === "qwen") return qwenProfile(words, options);
  return genericProfile(words, options);
}

// An agent whose model is chosen over the protocol is asked, before any run, whether it offers the models asked for.
async function checkModels(profile: AcpProfile, models: readonly string[]): Promise<void> {
  let choice: ModelChoice | undefined;
  try {
    choice = await probeModelChoice(profile);
  } catch (error) {
    throw new SkillgymError("AGENT_UNAVAILABLE", `--model: ${(error as Error).message}`, {
      hint: "check that the command starts an ACP agent",
    });
  }
  const refusal = modelRefusal(profile.label, choice, models);
  if (refusal)
    throw new SkillgymError("USAGE", refusal, {
      hint: choice
        ? "name one of the models it offers"
        : "leave out --model (the agent runs its own default), or put the agent's own model flag in its command",
    });
}

/** Creates the agent an `acp:<command…>` value names. */
export async function createAcpCommandAgent(value: string, options: AgentFactoryOptions): Promise<Agent> {
  const words = acpCommandOf(value);
  const profile = await profileFor(words, options);
  if (profile.modelOverAcp && options.models?.length) await checkModels(profile, options.models);
  return createAcpAgent({
    name: acpAgentName(value),
    profile,
    simulated: Boolean(options.simulatorUrl),
    simModel: SIM_MODEL,
  });
}

/** The built-in skills of a recorded `acp-<program>` agent. */
export function acpBuiltinSkills(name: string): readonly string[] {
  const known = knownAgent(name.replace(/^acp-?/, ""));
  return known === "gemini" ? geminiBuiltinSkills : known === "qwen" ? qwenBuiltinSkills : [];
}

/** ACP agents as the agent registry knows them: `acp:<command…>` to run, `acp-<program>` as recorded. */
export const acpEntry = {
  apiHosts: [] as readonly string[],
  create: (_options: AgentFactoryOptions): Promise<Agent> => {
    throw new SkillgymError("USAGE", "--agent acp needs the agent's command", {
      hint: "name it after \"acp:\", e.g. --agent 'acp:gemini --acp' or --agent 'acp:goose acp'",
    });
  },
  parseTranscript: (text: string) => parseAcpTranscript(text),
  describeLogin: async () => "the agent's own login (its environment as evals.json `env` names it)",
  builtinSkills: [] as readonly string[],
};
