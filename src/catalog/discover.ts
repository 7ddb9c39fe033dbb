import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { TriggerQuery } from "../contracts/evals.js";
import { SkillgymError } from "../errors.js";
import { errorsOf, formatFinding } from "../findings.js";
import { loadSkill, SKILL_FILE } from "../skill/index.js";
import { findProjectRoot, loadSuite } from "../suite/index.js";

/** A skill of the catalog with the trigger queries found for it (none: it only competes). */
export interface CatalogMember {
  name: string;
  dir: string;
  description: string;
  queries: TriggerQuery[];
  /** Its triggers.json, when it has one. */
  triggersFile?: string;
}

async function skillFolders(root: string): Promise<string[]> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SkillgymError(
      "BAD_INPUT",
      `${root} ${code === "ENOENT" ? "does not exist" : "cannot be read"}`,
      {
        file: root,
        hint: "pass a folder holding one folder per skill, each with its SKILL.md",
      },
    );
  }
  const folders: string[] = [];
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const inside = await readdir(join(root, entry.name)).catch(() => [] as string[]);
    if (inside.includes(SKILL_FILE)) folders.push(join(root, entry.name));
  }
  return folders;
}

/**
 * Every skill in the folder, checked before any run: an invalid skill or suite is refused with its findings, two
 * skills of one name are refused naming both folders. Trigger queries are discovered as `triggers` does.
 */
export async function discoverCatalog(dir: string): Promise<CatalogMember[]> {
  const root = resolve(dir);
  const folders = await skillFolders(root);
  if (folders.length < 2)
    throw new SkillgymError(
      "BAD_INPUT",
      `${root} holds ${folders.length} skill folder(s); a catalog needs two or more`,
      {
        file: root,
        hint: "pass a folder holding one folder per skill, each with its SKILL.md",
      },
    );
  const members: CatalogMember[] = [];
  const refused: string[] = [];
  for (const folder of folders) {
    const loaded = await loadSkill(folder);
    const errors = errorsOf(loaded.findings);
    if (!loaded.skill || errors.length > 0) {
      refused.push(
        `${folder} is not a valid skill:\n${errors.map((f) => `  ${formatFinding(f)}`).join("\n")}`,
      );
      continue;
    }
    const skill = loaded.skill;
    const suite = await loadSuite({
      skillDir: skill.dir,
      skillName: skill.name,
      projectRoot: await findProjectRoot(skill.dir),
    });
    const suiteErrors = errorsOf(suite.findings);
    if (suiteErrors.length > 0) {
      refused.push(
        `${folder}: its eval suite is not valid:\n${suiteErrors.map((f) => `  ${formatFinding(f)}`).join("\n")}`,
      );
      continue;
    }
    members.push({
      name: skill.name,
      dir: skill.dir,
      description: skill.description,
      queries: suite.suite?.triggers ?? [],
      ...(suite.suite?.triggersFile ? { triggersFile: suite.suite.triggersFile } : {}),
    });
  }
  if (refused.length > 0)
    throw new SkillgymError("INVALID_SKILL", refused.join("\n"), {
      hint: "fix the errors above (`skillgym validate <skill>` lists every finding); nothing was run",
    });
  const seen = new Map<string, string>();
  for (const member of members) {
    const first = seen.get(member.name);
    if (first)
      throw new SkillgymError(
        "BAD_INPUT",
        `two skills are named ${member.name}: ${first} and ${member.dir}`,
        { hint: "rename one of them (its folder and the name in its SKILL.md); nothing was run" },
      );
    seen.set(member.name, member.dir);
  }
  return members;
}
