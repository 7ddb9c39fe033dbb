import { readdir, readFile, realpath } from "node:fs/promises";
import * as path from "node:path";
import ignore from "ignore";
import { errnoOf } from "../tree/fs-errors.js";
import { isAtOrUnder, relativeInside } from "../tree/paths.js";
import type { SkipRule } from "./copy-tree.js";

type GitignoreRules = ReturnType<typeof ignore>;

/** Folders a project-root copy leaves out wherever they appear: VCS data, dependencies, build outputs, caches. */
export const SKIPPED_FOLDER_NAMES: readonly string[] = [
  ".git",
  "node_modules",
  "dist",
  "build",
  "out",
  ".next",
  "target",
  "__pycache__",
  ".venv",
  "coverage",
];

export interface ProjectSkipOptions {
  /** Absolute paths never copied, with everything under them (at least the destination of the copy). */
  excludePaths?: readonly string[];
}

export interface ProjectIgnoreRules {
  /** `.gitignore` rules by the POSIX path of the folder that holds them (`""` for the root). */
  gitignores: Map<string, GitignoreRules>;
  /** POSIX paths left out with everything under them: excluded paths and our own `*-workspace` folders. */
  skippedPaths: Set<string>;
}

const skippedFolderNames = new Set(SKIPPED_FOLDER_NAMES);

/**
 * Reads every `.gitignore` of the project (plus `.git/info/exclude`) and finds our own workspace folders,
 * returning a rule for `copyTree`. Folders that are skipped are not looked into.
 */
export async function loadProjectSkip(
  projectRoot: string,
  options: ProjectSkipOptions = {},
): Promise<SkipRule> {
  const root = path.resolve(projectRoot);
  const rules: ProjectIgnoreRules = { gitignores: new Map(), skippedPaths: new Set() };
  const roots = [root, await realpath(root)];
  // Stryker disable next-line ArrayDeclaration: equivalent, a made-up relative path resolves against the working folder, outside the project
  for (const excluded of options.excludePaths ?? []) {
    for (const candidate of [excluded, await realpathOrSelf(excluded)]) {
      for (const base of roots) {
        const rel = relativeInside(base, candidate);
        // The root itself ("") is under no path copyTree asks about.
        if (rel !== undefined) rules.skippedPaths.add(rel);
      }
    }
  }
  const infoExclude = await readTextIfPresent(path.join(root, ".git", "info", "exclude"));
  await scanFolder(rules, root, "", infoExclude);
  return (rel, isDir) => isSkipped(rules, rel, isDir);
}

export function isSkipped(rules: ProjectIgnoreRules, rel: string, isDir: boolean): boolean {
  const segments = rel.split("/");
  // Stryker disable next-line StringLiteral: equivalent, a split string always has a last segment
  const name = segments[segments.length - 1] ?? "";
  if (name === ".git") return true; // a folder, or a file in worktrees and submodules
  if (isDir && skippedFolderNames.has(name)) return true;
  for (const skipped of rules.skippedPaths) {
    if (isAtOrUnder(rel, skipped)) return true;
  }
  return isGitignored(rules.gitignores, segments, isDir);
}

// Rules of deeper .gitignore files take precedence, as in git: the last level whose rules match decides.
function isGitignored(gitignores: Map<string, GitignoreRules>, segments: string[], isDir: boolean): boolean {
  let ignored = false;
  for (const depth of segments.keys()) {
    const rules = gitignores.get(segments.slice(0, depth).join("/"));
    if (rules === undefined) continue;
    const sub = segments.slice(depth).join("/") + (isDir ? "/" : "");
    if (!ignore.isPathValid(sub)) continue;
    const result = rules.test(sub);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

async function scanFolder(
  rules: ProjectIgnoreRules,
  dir: string,
  relDir: string,
  extraRules: string | undefined,
): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  const gitignoreFile = entries.find((e) => e.name === ".gitignore" && e.isFile());
  const gitignoreText = gitignoreFile ? await readFile(path.join(dir, ".gitignore"), "utf8") : undefined;
  // Stryker disable next-line ConditionalExpression: equivalent, an empty rule set ignores nothing
  if (gitignoreText !== undefined || extraRules !== undefined) {
    const gitignore = ignore();
    // Each text's byte order mark is dropped by ignore's add, as git drops it.
    if (extraRules !== undefined) gitignore.add(extraRules);
    if (gitignoreText !== undefined) gitignore.add(gitignoreText);
    rules.gitignores.set(relDir, gitignore);
  }
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const rel = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
    // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent, it only saves a walk into a folder copyTree skips anyway
    if (isSkipped(rules, rel, true)) continue;
    const abs = path.join(dir, entry.name);
    if (entry.name.endsWith("-workspace") && (await holdsIterations(abs))) {
      rules.skippedPaths.add(rel);
      continue;
    }
    await scanFolder(rules, abs, rel, undefined);
  }
}

// `<skill>-workspace/iteration-<N>/` is skillgym's (and skill-creator's) own output, never project input.
async function holdsIterations(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.some((e) => e.isDirectory() && e.name.startsWith("iteration-"));
}

async function readTextIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = errnoOf(error);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

async function realpathOrSelf(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return path.resolve(file);
  }
}
