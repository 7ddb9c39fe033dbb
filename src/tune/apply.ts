import { SkillgymError } from "../errors.js";
import { hashSkill } from "../skill/index.js";
import type { TuneResult } from "./run-tune.js";
import { replaceSkillFiles } from "./skill-files.js";

/**
 * Writes the best version over the user's skill (its evals/ untouched), only where it differs, and only when the
 * user's skill is still what the tune started from. Returns the skills written.
 */
export async function applyBest(
  result: Pick<TuneResult, "best" | "skillPaths" | "originalDirs" | "diffs">,
): Promise<string[]> {
  const changed = result.diffs.filter((d) => d.diff !== "").map((d) => d.name);
  for (const name of changed) {
    const target = result.skillPaths[name] as string;
    const original = result.originalDirs[name] as string;
    if ((await hashSkill(target)) !== (await hashSkill(original))) {
      throw new SkillgymError("BAD_INPUT", `${target} changed since the tune began; it was not overwritten`, {
        file: target,
        hint: `apply the diff in final-report.md by hand, or copy ${result.best.dirs[name]} over it`,
      });
    }
  }
  for (const name of changed)
    await replaceSkillFiles(result.best.dirs[name] as string, result.skillPaths[name] as string);
  return changed;
}
