import { SkillgymError } from "../errors.js";
import { errorsOf, formatFinding } from "../findings.js";
import { loadSkill } from "../skill/index.js";

/** The skills of `--with-skills`, checked: each valid, none named like the skill under test. */
export async function loadCompanions(paths: readonly string[], skillName: string) {
  const companions: { sourceDir: string; installName: string }[] = [];
  for (const path of paths) {
    const loaded = await loadSkill(path);
    if (!loaded.skill || errorsOf(loaded.findings).length > 0) {
      const lines = errorsOf(loaded.findings).map((f) => `  ${formatFinding(f)}`);
      throw new SkillgymError(
        "INVALID_SKILL",
        `--with-skills: ${path} is not a valid skill:\n${lines.join("\n")}`,
      );
    }
    if (loaded.skill.name === skillName) {
      throw new SkillgymError(
        "USAGE",
        `--with-skills: ${path} has the name of the skill under test (${skillName})`,
      );
    }
    companions.push({ sourceDir: loaded.skill.dir, installName: loaded.skill.name });
  }
  return companions;
}
