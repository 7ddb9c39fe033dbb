import { agentKeyParts } from "../../run/reuse.js";
import { hashSkill } from "../../skill/index.js";
import { storeKey } from "../../store/index.js";
import type { Companion } from "../companions.js";
import type { TriggerContext } from "../run-trigger.js";

// Installed names are unique (loadConditionSkills refuses a name installed twice): one skill a name, in name order.
const inNameOrder = (skills: readonly Companion[]): Companion[] => {
  const byName = new Map(skills.map((c) => [c.installName, c]));
  return [...byName.keys()].sort().map((name) => byName.get(name) as Companion);
};

const hashes = (skills: readonly Companion[]) =>
  Promise.all(skills.map(async (c) => ({ name: c.installName, content: await hashSkill(c.sourceDir) })));

/**
 * The store key of a captured first request: what the agent puts in it besides the query. The agent, its version
 * and the model; the skill's name and description (all the listing shows of it); the skills installed beside it; the
 * project tree and the prior conversation.
 */
export async function captureKey(ctx: TriggerContext, description: string): Promise<string> {
  return storeKey({
    kind: "replay-capture",
    ...(await agentKeyParts(ctx)),
    name: ctx.skillName,
    description,
    companions: await hashes(ctx.companions),
    installed: await hashes(inNameOrder(ctx.installed ?? [])),
    project: ctx.project?.hash ?? null,
    context: ctx.context?.hash ?? null,
  });
}
