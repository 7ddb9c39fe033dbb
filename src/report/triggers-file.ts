import { join } from "node:path";
import { SkillgymError } from "../errors.js";
import { errorsOf, formatFinding } from "../findings.js";
import { loadSkill } from "../skill/index.js";
import { discoverSuite, findProjectRoot } from "../suite/index.js";

/** The triggers.json of a skill's suite: the discovered one, else <skill>/evals/triggers.json (created on save). */
export async function locateTriggersFile(skillPath: string): Promise<string> {
  const loaded = await loadSkill(skillPath);
  const errors = errorsOf(loaded.findings);
  if (!loaded.skill) {
    throw new SkillgymError("INVALID_SKILL", `not a skill: ${errors.map(formatFinding).join("\n")}`, {
      hint: "pass the skill folder (the one with SKILL.md) with --triggers",
    });
  }
  const skill = loaded.skill;
  const projectRoot = await findProjectRoot(skill.dir);
  const { found } = await discoverSuite({ skillDir: skill.dir, skillName: skill.name, projectRoot });
  return found?.triggersFile ?? join(found?.dir ?? join(skill.dir, "evals"), "triggers.json");
}
