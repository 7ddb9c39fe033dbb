import { join } from "node:path";
import { type SkillLoad, skillLoadBy, walkUpSkillRoots } from "../skill-folders.js";

/** Copilot CLI's own skills, in its package's builtin/ folder: never the skill under test, nor a competitor. */
export const copilotBuiltinSkills: readonly string[] = [
  "customize-cloud-agent",
  "discover-resources",
  "github-pr-media",
];

/**
 * Where Copilot CLI finds skills for a run: `.github/skills`, `.agents/skills` and `.claude/skills` in the working
 * folder and each folder above it (up to the git root when there is one), then the run's own home.
 */
export async function copilotSkillRoots(cwd: string, home: string): Promise<string[]> {
  return [
    ...(await walkUpSkillRoots(cwd, [".github/skills", ".agents/skills", ".claude/skills"])),
    join(home, ".copilot", "skills"),
    join(home, ".agents", "skills"),
  ];
}

/** The skill a tool call loads, if it loads one: a `skill` call naming it, or a `view` of its SKILL.md. */
export function copilotSkillLoad(name: string, input: Record<string, unknown>): SkillLoad | undefined {
  return skillLoadBy(
    { tool: { name: "skill", skillKey: "skill" }, read: { name: "view", pathKeys: ["path"] } },
    name,
    input,
  );
}
