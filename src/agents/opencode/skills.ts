import { join } from "node:path";
import { type SkillLoad, skillLoadBy, walkUpSkillRoots } from "../skill-folders.js";

/** OpenCode's own skill, listed in every run: never the skill under test, nor a competitor. */
export const openCodeBuiltinSkills: readonly string[] = ["customize-opencode"];

/**
 * Where OpenCode finds skills for a run: `.opencode/skills`, `.claude/skills` and `.agents/skills` in the working
 * folder and each folder above it (up to the git root when there is one), then the run's own home.
 */
export async function openCodeSkillRoots(cwd: string, home: string): Promise<string[]> {
  return [
    ...(await walkUpSkillRoots(cwd, [".opencode/skills", ".claude/skills", ".agents/skills"])),
    join(home, ".config", "opencode", "skills"),
    join(home, ".claude", "skills"),
    join(home, ".agents", "skills"),
  ];
}

/** The skill a tool call loads, if it loads one: a `skill` call naming it, or a `read` of its SKILL.md. */
export function openCodeSkillLoad(name: string, input: Record<string, unknown>): SkillLoad | undefined {
  return skillLoadBy(
    { tool: { name: "skill", skillKey: "name" }, read: { name: "read", pathKeys: ["filePath"] } },
    name,
    input,
  );
}
