import { access, readdir } from "node:fs/promises";
import { dirname, join } from "node:path";

/** OpenCode's own skill, listed in every run: never the skill under test, nor a competitor. */
export const openCodeBuiltinSkills: readonly string[] = ["customize-opencode"];

const PROJECT_FOLDERS = [".opencode/skills", ".claude/skills", ".agents/skills"];

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where OpenCode finds skills for a run: `.opencode/skills`, `.claude/skills` and `.agents/skills` in the working
 * folder and each folder above it (up to the git root when there is one), then the run's own home.
 */
export async function openCodeSkillRoots(cwd: string, home: string): Promise<string[]> {
  const roots: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    roots.push(...PROJECT_FOLDERS.map((folder) => join(dir, folder)));
    if (dirname(dir) === dir || (await exists(join(dir, ".git")))) break;
  }
  roots.push(
    join(home, ".config", "opencode", "skills"),
    join(home, ".claude", "skills"),
    join(home, ".agents", "skills"),
  );
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

/** The skill a tool call loads, if it loads one: a `skill` call naming it, or a `read` of its SKILL.md. */
export function openCodeSkillLoad(
  name: string,
  input: Record<string, unknown>,
): { skill: string; via: "tool" | "read" } | undefined {
  if (name === "skill") {
    const skill = input.name;
    return typeof skill === "string" && skill ? { skill, via: "tool" } : undefined;
  }
  if (name === "read") {
    const path = input.filePath;
    if (typeof path !== "string") return undefined;
    const match = /[\\/]skills[\\/]([^\\/]+)[\\/]SKILL\.md$/i.exec(path);
    return match?.[1] ? { skill: match[1], via: "read" } : undefined;
  }
  return undefined;
}
