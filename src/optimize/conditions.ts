import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { SkillgymError } from "../errors.js";
import type { Skill } from "../skill/index.js";
import type { Suite } from "../suite/index.js";
import { loadConditionSkills, loadContext, withSuiteConditions } from "../triggers/index.js";

/** Where an optimization's trigger runs are made: absent fields are the clean room's. */
export interface OptimizeConditions {
  project?: string;
  installed?: string[];
  context?: string;
}

async function checkProject(project: string): Promise<void> {
  const info = await stat(project).catch(() => undefined);
  if (!info?.isDirectory())
    throw new SkillgymError(
      "WORKSPACE",
      `${info ? "Project root is not a folder" : "Project root not found"}: ${project}`,
      { file: project, hint: "give --project-root the folder of the project the skill is used in" },
    );
}

/**
 * The conditions of `--project-root`, `--installed` and `--context`, with the suite's `"conditions"` for what the flags
 * left out, each checked before any agent starts. An optimization evaluates each description once, under the real
 * conditions: the suite's `side_by_side` is not followed (the clean room would double every evaluation's runs).
 */
export async function resolveOptimizeConditions(
  given: OptimizeConditions,
  inputs: { skill: Skill; suite: Suite },
): Promise<OptimizeConditions> {
  const { project, installed, context } = given;
  // A condition left undefined is one not given: the suite's own is taken for it.
  const merged = await withSuiteConditions({ project, installed, context }, inputs.suite);
  if (merged.project !== undefined) await checkProject(resolve(merged.project));
  await loadConditionSkills({ installed: merged.installed }, inputs.skill.name);
  if (merged.context !== undefined) await loadContext(merged.context);
  return {
    ...(merged.project !== undefined ? { project: resolve(merged.project) } : {}),
    ...(merged.installed?.length ? { installed: merged.installed.map((d) => resolve(d)) } : {}),
    ...(merged.context !== undefined ? { context: resolve(merged.context) } : {}),
  };
}

/** What results.json's settings say of the conditions; nothing in the clean room, as before them. */
export function conditionsSetting(c: OptimizeConditions) {
  if (c.project === undefined && c.installed === undefined && c.context === undefined) return {};
  // A condition left undefined is left out of results.json.
  return { conditions: { project_root: c.project, installed: c.installed, context: c.context } };
}
