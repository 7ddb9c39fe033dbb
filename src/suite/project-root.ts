import { basename, dirname, resolve } from "node:path";
import { exists, isFile } from "../fs-probe.js";

/**
 * The project a skill belongs to, used for eval discovery and fixture paths (the CLI's `--project-root` wins):
 * 1. the nearest folder, from the skill folder itself upwards, holding `.git` (a folder, or a file for worktrees);
 * 2. else the nearest holding `package.json`;
 * 3. else the folder that holds the skill, skipping a `skills/` folder and a dot-folder above it, so that
 *    `<root>/skills/<name>`, `<root>/.claude/skills/<name>` and `<root>/<name>` all give `<root>`.
 * The fallback never climbs further, so a stray skill never makes a home folder its project.
 */
export async function findProjectRoot(skillDir: string): Promise<string> {
  const start = resolve(skillDir);
  return (
    (await nearestAncestor(start, (dir) => exists(resolve(dir, ".git")))) ??
    (await nearestAncestor(start, (dir) => isFile(resolve(dir, "package.json")))) ??
    folderHoldingSkill(start)
  );
}

async function nearestAncestor(
  start: string,
  holds: (dir: string) => Promise<boolean>,
): Promise<string | undefined> {
  let dir = start;
  for (;;) {
    if (await holds(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function folderHoldingSkill(skillDir: string): string {
  let dir = dirname(skillDir);
  if (basename(dir) === "skills") {
    dir = dirname(dir);
    if (basename(dir).startsWith(".")) dir = dirname(dir);
  }
  return dir;
}
