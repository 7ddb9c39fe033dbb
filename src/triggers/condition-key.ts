import { hashSkill } from "../skill/index.js";
import type { Companion } from "./companions.js";
import type { ProjectCondition } from "./conditions.js";
import type { ContextCondition } from "./context.js";

/** The conditions a stored run was made under, as far as its store key needs them: hashes only. */
export interface KeyedConditions {
  installed?: readonly Companion[] | undefined;
  project?: Pick<ProjectCondition, "hash"> | undefined;
  context?: Pick<ContextCondition, "hash"> | undefined;
}

/** Each skill's install name and content hash, so an edited skill is a changed key. */
export const skillHashes = (skills: readonly Companion[]) =>
  Promise.all(skills.map(async (c) => ({ name: c.installName, content: await hashSkill(c.sourceDir) })));

/**
 * The store key's parts of the conditions a run was made under (trigger runs and catalog runs alike): the installed
 * skills by name and content, sorted (the order the libraries were found in does not matter), the project's tree hash,
 * the prior conversation's hash. A condition the run had none of stays out, so keys stored before conditions match.
 */
export async function conditionKeyParts(conditions: KeyedConditions) {
  return {
    ...(conditions.installed?.length ? { installed: await skillHashes(byName(conditions.installed)) } : {}),
    ...(conditions.project ? { project: conditions.project.hash } : {}),
    ...(conditions.context ? { context: conditions.context.hash } : {}),
  };
}

// The skills in the order of their install names (unique: `--installed` refuses a name twice), compared as strings are.
function byName(skills: readonly Companion[]): Companion[] {
  const named = new Map(skills.map((c) => [c.installName, c]));
  return [...named.keys()].sort().map((name) => named.get(name) as Companion);
}
