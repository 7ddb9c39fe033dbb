import { join } from "node:path";
import { walkUpSkillRoots } from "../skill-folders.js";

/**
 * Qwen Code's own skills, shipped in its package's `bundled/` folder and listed in every run (location "bundled"):
 * never the skill under test, nor a competitor. Read from the package when it is installed; this list otherwise.
 */
export const qwenBuiltinSkills: readonly string[] = [
  "batch",
  "browser-use",
  "computer-use",
  "coordinate",
  "dataviz",
  "extension-creator",
  "goal-draft",
  "loop",
  "new-app",
  "qc-helper",
  "review",
  "simplify",
  "stuck",
  "workflow-authoring",
  "workflow-creator",
  "zvec-grep-install",
];

/**
 * Where Qwen Code finds skills for a run: `.qwen/skills` and `.agents/skills` of the workspace (and above it), then
 * the run's home.
 */
export async function qwenSkillRoots(cwd: string, home: string): Promise<string[]> {
  return [
    ...(await walkUpSkillRoots(cwd, [".qwen/skills", ".agents/skills"])),
    join(home, ".qwen", "skills"),
  ];
}
