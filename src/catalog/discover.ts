import { readdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
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

/** The catalog's skills with their queries, and the subfolders left out because they hold no SKILL.md. */
export interface CatalogLibrary {
  members: CatalogMember[];
  /** Folders directly inside the catalog folder without a SKILL.md (hidden ones are not counted). */
  skipped: string[];
}

const LIBRARY_HINT = "pass a folder holding one folder per skill, each with its SKILL.md directly inside it";

async function entriesOf(root: string): Promise<import("node:fs").Dirent[]> {
  try {
    return await readdir(root, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SkillgymError(
      "BAD_INPUT",
      `${root} ${code === "ENOENT" ? "does not exist" : code === "ENOTDIR" ? "is not a folder" : "cannot be read"}`,
      { file: root, hint: LIBRARY_HINT },
    );
  }
}

// A skill given in place of its library is refused: installing it with its own evals/ as "skills" would mislead.
async function skillFolders(root: string): Promise<{ folders: string[]; skipped: string[] }> {
  const entries = await entriesOf(root);
  if (entries.some((e) => e.isFile() && e.name === SKILL_FILE))
    throw new SkillgymError(
      "BAD_INPUT",
      `${root} is itself a skill (it has a ${SKILL_FILE}), not a folder of skills`,
      {
        file: root,
        hint: `pass the folder that holds it beside the others (skillgym catalog ${dirname(root)}), or test this skill's own queries with skillgym triggers ${root}`,
      },
    );
  const folders: string[] = [];
  const skipped: string[] = [];
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith(".")) continue;
    const inside = await readdir(join(root, entry.name)).catch(() => [] as string[]);
    (inside.includes(SKILL_FILE) ? folders : skipped).push(join(root, entry.name));
  }
  return { folders, skipped };
}

/**
 * Every skill in the folder, checked before any run: an invalid skill or suite is refused with its findings, two
 * skills of one name are refused naming both folders. Trigger queries are discovered as `triggers` does.
 */
export async function discoverCatalog(dir: string): Promise<CatalogLibrary> {
  const root = resolve(dir);
  const { folders, skipped } = await skillFolders(root);
  if (folders.length < 2) {
    const without = skipped.length > 0 ? `; without a ${SKILL_FILE}: ${skipped.join(", ")}` : "";
    throw new SkillgymError(
      "BAD_INPUT",
      `${root} holds ${folders.length} skill folder(s)${without}; a catalog needs two or more`,
      { file: root, hint: LIBRARY_HINT },
    );
  }
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
  return { members, skipped };
}
