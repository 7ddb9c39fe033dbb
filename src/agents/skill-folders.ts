import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { exists } from "../fs-probe.js";

/** How an agent names its two ways of loading a skill: its skill tool, and a read of the SKILL.md. */
export interface SkillLoadTools {
  /** The skill tool's name and the input key that names the skill. */
  tool: { name: string; skillKey: string };
  /** The file-reading tool's name and the input keys that may hold the path, first present wins. */
  read: { name: string; pathKeys: readonly string[] };
}

export type SkillLoad = { skill: string; via: "tool" | "read" };

const SKILL_FILE = /[\\/]skills[\\/]([^\\/]+)[\\/]SKILL\.md$/i;

/** The skill a tool call loads, if it loads one: the skill tool naming it, or a read of `…/skills/<name>/SKILL.md`. */
export function skillLoadBy(
  tools: SkillLoadTools,
  name: string,
  input: Record<string, unknown>,
): SkillLoad | undefined {
  if (name === tools.tool.name) {
    const skill = input[tools.tool.skillKey];
    return typeof skill === "string" && skill ? { skill, via: "tool" } : undefined;
  }
  if (name === tools.read.name) {
    const path = tools.read.pathKeys.map((key) => input[key]).find((value) => value !== undefined);
    if (typeof path !== "string") return undefined;
    const match = SKILL_FILE.exec(path);
    return match?.[1] ? { skill: match[1], via: "read" } : undefined;
  }
  return undefined;
}

/** The given skill folders (e.g. `.agents/skills`) in `cwd` and each folder above it, up to the git root if any. */
export async function walkUpSkillRoots(cwd: string, folders: readonly string[]): Promise<string[]> {
  const roots: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    roots.push(...folders.map((folder) => join(dir, folder)));
    if (dirname(dir) === dir || (await exists(join(dir, ".git")))) break;
  }
  return roots;
}

/** The skills under the given roots: each folder holding a SKILL.md, by its folder name, each once. */
export async function listSkills(roots: readonly string[]): Promise<string[]> {
  const names: string[] = [];
  for (const root of roots) {
    let entries: string[];
    try {
      entries = await readdir(root);
    } catch {
      continue;
    }
    for (const name of entries.sort())
      if (!names.includes(name) && (await exists(join(root, name, "SKILL.md")))) names.push(name);
  }
  return names;
}
