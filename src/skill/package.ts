import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type Zippable, zipSync } from "fflate";
import { SkillgymError } from "../errors.js";
import { errorsOf, formatFinding } from "../findings.js";
import { readSkillFile, scanSkill } from "./files.js";
import { loadSkill } from "./load.js";

export interface PackagedSkill {
  /** Absolute path of the written `<name>.skill` file. */
  file: string;
  /** Zip entry paths, each under `<name>/`, sorted. */
  entries: string[];
  /** What was left out (exclusions, `.skillignore`, `.gitignore`), relative to the skill folder; folders end in `/`. */
  leftOut: string[];
}

// A fixed timestamp makes the same skill always package to the same bytes.
const ENTRY_TIME = new Date(1980, 0, 1);
const UNIX = 3;
const REGULAR_FILE = 0o100000;

// Validates the skill, then zips it as `<name>/…` into `<outDir>/<name>.skill` (skill-creator's package format).
export async function packageSkill(dir: string, outDir?: string): Promise<PackagedSkill> {
  const { skill, findings } = await loadSkill(dir);
  const errors = errorsOf(findings);
  if (!skill || errors.length > 0) {
    const count = errors.length === 1 ? "1 error" : `${errors.length} errors`;
    throw new SkillgymError(
      "INVALID_SKILL",
      `cannot package ${resolve(dir)}: ${count}\n${errors.map(formatFinding).join("\n")}`,
      {
        hint: "fix the errors listed above, then package again",
        file: skill?.skillMdPath ?? resolve(dir),
      },
    );
  }

  const target = resolve(outDir ?? process.cwd());
  const file = join(target, `${skill.name}.skill`);
  const zippable: Zippable = {};
  const scan = await scanSkill(skill.dir);
  for (const entry of scan.files) {
    if (entry.absolutePath === file) continue;
    const mode = entry.executable ? 0o755 : 0o644;
    zippable[`${skill.name}/${entry.path}`] = [
      await readSkillFile(entry),
      { os: UNIX, attrs: (REGULAR_FILE | mode) << 16, mtime: ENTRY_TIME },
    ];
  }

  try {
    await mkdir(target, { recursive: true });
    await writeFile(file, zipSync(zippable));
  } catch (error) {
    throw new SkillgymError("BAD_INPUT", `cannot write ${file}: ${(error as Error).message}`, {
      hint: "choose an output folder you can write to",
      file,
      cause: error,
    });
  }
  // Stryker disable next-line MethodExpression: equivalent, scanSkill already lists files sorted by code unit under one `<name>/` prefix
  return { file, entries: Object.keys(zippable).sort(), leftOut: scan.leftOut };
}
