import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { SkillgymError } from "../errors.js";
import { errorsOf, formatFinding } from "../findings.js";
import { loadSkill } from "../skill/index.js";

/** A skill installed beside the one under test, under its own name. */
export interface Companion {
  sourceDir: string;
  installName: string;
}

async function checkedSkill(path: string, skillName: string, flag: string): Promise<Companion> {
  const loaded = await loadSkill(path);
  if (!loaded.skill || errorsOf(loaded.findings).length > 0) {
    const lines = errorsOf(loaded.findings).map((f) => `  ${formatFinding(f)}`);
    throw new SkillgymError("INVALID_SKILL", `${flag}: ${path} is not a valid skill:\n${lines.join("\n")}`, {
      file: path,
    });
  }
  if (loaded.skill.name === skillName) {
    throw new SkillgymError("USAGE", `${flag}: ${path} has the name of the skill under test (${skillName})`, {
      file: path,
      hint: "leave the skill under test out of the folders installed beside it",
    });
  }
  return { sourceDir: loaded.skill.dir, installName: loaded.skill.name };
}

/** The skills of `--with-skills`, checked: each valid, none named like the skill under test. */
export async function loadCompanions(paths: readonly string[], skillName: string): Promise<Companion[]> {
  const companions: Companion[] = [];
  for (const path of paths) companions.push(await checkedSkill(path, skillName, "--with-skills"));
  return companions;
}

// The skill folders of a library: its entries (links followed) that are folders holding a SKILL.md.
async function skillFoldersIn(dir: string): Promise<string[]> {
  const info = await stat(dir).catch(() => undefined);
  if (!info) {
    throw new SkillgymError("USAGE", `--installed: ${dir} does not exist`, {
      file: dir,
      hint: "give a folder of skill folders, e.g. a copy of ~/.claude/skills",
    });
  }
  if (!info.isDirectory()) {
    throw new SkillgymError("USAGE", `--installed: ${dir} is not a folder`, {
      file: dir,
      hint: "give a folder of skill folders, e.g. a copy of ~/.claude/skills",
    });
  }
  const names = (await readdir(dir)).filter((n) => !n.startsWith(".")).sort();
  const found: string[] = [];
  for (const name of names) {
    const skillFile = await stat(join(dir, name, "SKILL.md")).catch(() => undefined);
    if (skillFile?.isFile()) found.push(join(dir, name));
  }
  if (found.length === 0) {
    throw new SkillgymError("USAGE", `--installed: ${dir} holds no skill (no folder in it has a SKILL.md)`, {
      file: dir,
      hint: "give the folder that holds the skill folders, not a skill folder itself (use --with-skills for one)",
    });
  }
  return found;
}

/**
 * The skills of `--installed`: every skill folder in each library folder, checked as `--with-skills` checks its own,
 * and no name installed twice (by two libraries, or by a library and `--with-skills`).
 */
export async function loadInstalled(
  dirs: readonly string[],
  skillName: string,
  beside: readonly Companion[] = [],
): Promise<Companion[]> {
  const installed: Companion[] = [];
  const seen = new Map(beside.map((c) => [c.installName, c.sourceDir]));
  for (const dir of dirs) {
    for (const folder of await skillFoldersIn(resolve(dir))) {
      const skill = await checkedSkill(folder, skillName, "--installed");
      const earlier = seen.get(skill.installName);
      if (earlier !== undefined) {
        throw new SkillgymError(
          "USAGE",
          `--installed: ${folder} has the name ${skill.installName}, as ${earlier} has`,
          { file: folder, hint: "install one skill of each name: leave one of the two out" },
        );
      }
      seen.set(skill.installName, skill.sourceDir);
      installed.push(skill);
    }
  }
  return installed;
}
