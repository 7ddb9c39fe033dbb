import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import ignore from "ignore";

// What a skill's hash, package and copies leave out: tooling state, caches, secrets, litter and its own evals.
const EXCLUDED_ANYWHERE = new Set([
  ".git",
  "node_modules",
  "__pycache__",
  ".DS_Store",
  "Thumbs.db",
  "desktop.ini",
  ".venv",
  "venv",
  ".idea",
  ".vscode",
]);
const EXCLUDED_AT_ROOT = new Set(["evals"]);
const EXCLUDED_SUFFIXES = [".pyc", ".swp", ".swo", "~"];
/** Files of ignore rules (gitignore syntax) read from the skill folder's top. */
export const IGNORE_FILES: readonly string[] = [".skillignore", ".gitignore"];

/** Whether a name is an env file of secrets (`.env`, `.env.local`, …); `.env.example` is documentation. */
export function isEnvFile(name: string): boolean {
  return name.startsWith(".env") && name !== ".env.example";
}

/** Whether an entry is left out by the built-in rules, given its POSIX path relative to the skill folder. */
export function isExcluded(relativePath: string): boolean {
  const parts = relativePath.split("/");
  // split gives at least one part.
  if (EXCLUDED_AT_ROOT.has(parts[0]!)) return true;
  return parts.some(
    (part) =>
      EXCLUDED_ANYWHERE.has(part) ||
      isEnvFile(part) ||
      EXCLUDED_SUFFIXES.some((suffix) => part.endsWith(suffix)),
  );
}

export type SkillExclusion = (
  rel: string,
  isDir: boolean,
  absolutePath: string | undefined,
) => Promise<boolean>;

/** The built-in rules, the skill's `.skillignore` and `.gitignore`, and any folder holding `pyvenv.cfg` (a virtualenv). */
export async function loadSkillExclusions(dir: string): Promise<SkillExclusion> {
  const rules = ignore();
  for (const name of IGNORE_FILES) {
    const text = await readFile(join(dir, name), "utf8").catch(() => undefined);
    // ignore's add drops a byte order mark itself, as git does.
    if (text !== undefined) rules.add(text);
  }
  return async (rel, isDir, absolutePath) => {
    if (isExcluded(rel)) return true;
    const path = isDir ? `${rel}/` : rel;
    if (ignore.isPathValid(path) && rules.ignores(path)) return true;
    if (!isDir || absolutePath === undefined) return false;
    return (await stat(join(absolutePath, "pyvenv.cfg")).catch(() => undefined))?.isFile() === true;
  };
}
