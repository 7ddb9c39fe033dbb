import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { SkillgymError } from "../errors.js";
import type { Finding } from "../findings.js";
import { listSkillFiles } from "./files.js";
import { parseFrontmatter } from "./frontmatter.js";
import { checkSkill } from "./rules.js";

export const SKILL_FILE = "SKILL.md";

export interface Skill {
  /** Absolute path of the skill folder. */
  dir: string;
  /** The frontmatter's `name`, or the folder's name when that is missing or not a string. */
  name: string;
  /** The frontmatter's `description`, or "" when that is missing or not a string. */
  description: string;
  frontmatter: Record<string, unknown>;
  /** The instructions after the frontmatter, with LF line endings. */
  body: string;
  skillMdPath: string;
}

export interface LoadedSkill {
  /** Undefined only when there is no usable frontmatter; check the findings for errors either way. */
  skill: Skill | undefined;
  findings: Finding[];
}

// Loads and validates a skill folder (or its SKILL.md); bad input becomes findings, never an exception.
export async function loadSkill(path: string): Promise<LoadedSkill> {
  const located = await locateSkill(resolve(path));
  if ("finding" in located) return { skill: undefined, findings: [located.finding] };
  const { dir, skillMdPath } = located;

  const text = await readSkillMd(skillMdPath);
  if (typeof text !== "string") return { skill: undefined, findings: [text] };

  const { frontmatter, findings } = parseFrontmatter(text, skillMdPath);
  if (!frontmatter) return { skill: undefined, findings };

  const skillFiles = await listedFiles(dir);
  if (!(skillFiles instanceof Set)) findings.push(skillFiles);
  findings.push(
    ...checkSkill({
      file: skillMdPath,
      folderName: basename(dir),
      frontmatter,
      skillFiles: skillFiles instanceof Set ? skillFiles : undefined,
    }),
  );

  const data = frontmatter.data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { skill: undefined, findings };
  const fields = data as Record<string, unknown>;
  return {
    skill: {
      dir,
      name: typeof fields.name === "string" ? fields.name : basename(dir),
      description: typeof fields.description === "string" ? fields.description : "",
      frontmatter: fields,
      body: frontmatter.body,
      skillMdPath,
    },
    findings,
  };
}

async function locateSkill(
  path: string,
): Promise<{ dir: string; skillMdPath: string } | { finding: Finding }> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) {
    return {
      finding: {
        severity: "error",
        code: info.code === "ENOENT" ? "skill-not-found" : "skill-unreadable",
        file: path,
        message:
          info.code === "ENOENT" ? "no such skill folder" : `cannot read the skill folder (${info.code})`,
        hint: "pass the path of a folder that holds a SKILL.md",
      },
    };
  }
  if (info.isFile()) {
    if (basename(path).toLowerCase() === SKILL_FILE.toLowerCase()) {
      return { dir: dirname(path), skillMdPath: path };
    }
    return {
      finding: {
        severity: "error",
        code: "skill-not-folder",
        file: path,
        message: "this is a file, not a skill folder",
        hint: "pass the folder that holds SKILL.md (or the SKILL.md itself)",
      },
    };
  }
  const skillMdPath = join(path, SKILL_FILE);
  const entries = await readdir(path).catch((error: NodeJS.ErrnoException) => error);
  if (entries instanceof Error) {
    return {
      finding: {
        severity: "error",
        code: "skill-unreadable",
        file: path,
        message: `cannot list the skill folder (${entries.code ?? entries.message})`,
        hint: "check the folder's permissions",
      },
    };
  }
  if (entries.includes(SKILL_FILE)) return { dir: path, skillMdPath };
  const variant = entries.find((entry) => entry.toLowerCase() === SKILL_FILE.toLowerCase());
  return {
    finding: {
      severity: "error",
      code: "skill-md-missing",
      file: skillMdPath,
      message: variant
        ? `the skill file is named ${variant}; it must be ${SKILL_FILE}`
        : `the folder has no ${SKILL_FILE}`,
      hint: variant
        ? `rename ${variant} to ${SKILL_FILE}`
        : `create ${SKILL_FILE} with a frontmatter (\`name\`, \`description\`) and instructions`,
    },
  };
}

async function readSkillMd(skillMdPath: string): Promise<string | Finding> {
  const bytes = await readFile(skillMdPath).catch((error: NodeJS.ErrnoException) => error);
  if (bytes instanceof Error) {
    return {
      severity: "error",
      code: "skill-unreadable",
      file: skillMdPath,
      message: `cannot read ${SKILL_FILE} (${bytes.code ?? bytes.message})`,
      hint: "check the file's permissions",
    };
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return {
      severity: "error",
      code: "skill-not-utf8",
      file: skillMdPath,
      message: `${SKILL_FILE} is not valid UTF-8`,
      hint: "save the file as UTF-8 (not UTF-16 or a legacy code page)",
    };
  }
}

async function listedFiles(dir: string): Promise<Set<string> | Finding> {
  try {
    return new Set((await listSkillFiles(dir)).map((file) => file.path));
  } catch (error) {
    const reason = error instanceof SkillgymError ? error.message : String(error);
    return {
      severity: "error",
      code: "skill-unreadable",
      file: dir,
      message: `cannot list the skill folder: ${reason}`,
      hint: "check the permissions of the skill folder and its subfolders",
    };
  }
}
