import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join, posix, resolve } from "node:path";
import { SkillgymError } from "../errors.js";
import type { Finding } from "../findings.js";
import { describeLink, type LinkProblem } from "../tree/links.js";
import { isEnvFile } from "./exclusions.js";
import { type SkillScan, scanSkill } from "./files.js";
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

  const scan = await scanned(dir);
  if ("severity" in scan) findings.push(scan);
  else findings.push(...linkFindings(dir, scan.links), ...envFindings(dir, scan.leftOut));
  findings.push(
    ...checkSkill({
      file: skillMdPath,
      folderName: basename(dir),
      frontmatter,
      skillFiles: "severity" in scan ? undefined : new Set(scan.files.map((f) => f.path)),
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

async function scanned(dir: string): Promise<SkillScan | Finding> {
  try {
    return await scanSkill(dir);
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

// A link out of the skill would ship or send the packager's files; a looping one is merely skipped.
function linkFindings(dir: string, links: readonly LinkProblem[]): Finding[] {
  return links.map((link) => ({
    severity: link.problem === "outside" ? "error" : "warning",
    code: link.problem === "outside" ? "link-outside" : "link-loop",
    file: join(dir, ...link.path.split("/")),
    message: describeLink(link, "the skill folder"),
    hint:
      link.problem === "outside"
        ? "copy what the skill needs into its folder and remove the link"
        : "remove the link; a folder cannot hold itself",
  }));
}

function envFindings(dir: string, leftOut: readonly string[]): Finding[] {
  return leftOut
    .filter((path) => isEnvFile(posix.basename(path)))
    .map((path) => ({
      severity: "warning",
      code: "env-file",
      file: join(dir, ...path.split("/")),
      message: "an env file usually holds secrets; it is left out of the package, the hash and tune's copies",
      hint: "keep secrets outside the skill folder; document the variables in an .env.example instead",
    }));
}
