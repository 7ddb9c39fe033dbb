import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { SkillgymError } from "../errors.js";
import { type LinkProblem, walkTree } from "../tree/links.js";
import { loadSkillExclusions } from "./exclusions.js";

export interface SkillFile {
  /** Path relative to the skill folder, `/`-separated and NFC-normalised, the same on every platform. */
  path: string;
  absolutePath: string;
  executable: boolean;
}

export interface SkillScan {
  files: SkillFile[];
  /** What the exclusions left out, relative to the skill folder; folders end in `/`. */
  leftOut: string[];
  /** Links leaving the skill folder or looping: never followed, so never hashed, copied or packaged. */
  links: LinkProblem[];
}

// Hash, package, tune copies and staging all read this one list: what is not shipped is not the skill.
export async function scanSkill(dir: string): Promise<SkillScan> {
  const root = resolve(dir);
  try {
    const exclude = await loadSkillExclusions(root);
    const walk = await walkTree(root, exclude);
    const files = walk.files.map((f) => ({
      path: f.path,
      absolutePath: f.absolutePath,
      executable: (f.mode & 0o111) !== 0,
    }));
    return { files, leftOut: walk.leftOut, links: walk.problems };
  } catch (error) {
    const path = (error as NodeJS.ErrnoException).path ?? root;
    // Stryker disable next-line StringLiteral: equivalent, the file system's errors always carry a code
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new SkillgymError("BAD_INPUT", `cannot read ${path} (${code})`, {
      file: path,
      hint: "check that the skill folder exists and is readable",
      cause: error,
    });
  }
}

// Files of a skill folder minus the exclusions and links that leave it, sorted by code unit (never by locale).
export async function listSkillFiles(dir: string): Promise<SkillFile[]> {
  return (await scanSkill(dir)).files;
}

export async function readSkillFile(file: SkillFile): Promise<Buffer> {
  try {
    return await readFile(file.absolutePath);
  } catch (error) {
    // Stryker disable next-line StringLiteral: equivalent, the file system's errors always carry a code
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new SkillgymError("BAD_INPUT", `cannot read ${file.absolutePath} (${code})`, {
      file: file.absolutePath,
      hint: "check that the skill folder exists and is readable",
      cause: error,
    });
  }
}
