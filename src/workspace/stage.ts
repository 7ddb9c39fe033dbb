import { access, constants, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { SkillgymError } from "../errors.js";
import { listSkillFiles } from "../skill/files.js";
import { errnoOf, workspaceError } from "../tree/fs-errors.js";
import { realInside } from "../tree/links.js";
import { isAtOrUnder, relativeInside, resolveInside } from "../tree/paths.js";
import { copyFileReplacing, copyTree, ensureDir, type SkipRule } from "./copy-tree.js";
import { loadProjectSkip } from "./ignore-rules.js";
import { frontmatterName, renameSkillInFrontmatter } from "./rename-skill.js";

export interface SkillInstall {
  sourceDir: string;
  /** The folder name under the skills folder: the skill's own name, or a synthetic one for trigger evals. */
  installName: string;
}

export interface FixtureStaging {
  /** Absolute path of a file or a folder. */
  source: string;
  /** The folder the source was found in; a source whose real path leaves it is refused. Default: its parent folder. */
  root?: string;
  /** Relative POSIX path inside the workspace. */
  target: string;
}

export interface WorkspacePlan {
  /** The run's workspace folder; created when absent. Give an empty or absent folder: it is never cleared. */
  dir: string;
  projectRoot?: string;
  /**
   * Absolute paths inside `projectRoot` the project copy leaves out, e.g. the eval suite (so the agent cannot
   * read the expectations) or the skill under test in a `without_skill` run. `skills[].sourceDir` and `dir`
   * are always left out.
   */
  projectExcludes?: string[];
  baseOverlay?: string;
  evalOverlay?: string;
  skills: SkillInstall[];
  /** Relative POSIX path of the agent's skills folder, e.g. `.claude/skills`. */
  skillsFolder: string;
  fixtures: FixtureStaging[];
  /**
   * Rewrite the `name:` of each installed SKILL.md to its `installName` (trigger evals), and remove any copy
   * the project or an overlay put under the skill's real name, so the synthetic one is the only copy.
   */
  rewriteSkillName?: boolean;
}

interface Source {
  path: string;
  what: string;
  mustBe: "dir" | "file-or-dir";
}

/**
 * Builds a run's workspace in SPEC order: project root copy → base overlay → per-eval overlay → skills under
 * test (each replaces whatever an overlay put at its place) → fixtures. Everything is copied, never linked.
 */
export async function stageWorkspace(plan: WorkspacePlan): Promise<void> {
  const dir = path.resolve(plan.dir);
  const sources = sourcesOf(plan);
  const kinds = await checkSources(sources);
  await refuseOutsideFixtures(plan.fixtures);
  refuseOverlap(dir, sources);
  const skillTargets = plan.skills.map((skill) => skillTarget(dir, plan.skillsFolder, skill.installName));
  const fixtureTargets = plan.fixtures.map((f) => resolveInside(dir, f.target, "Fixture target"));
  await prepareFolder(dir);
  try {
    if (plan.projectRoot !== undefined) {
      // Stryker disable next-line ArrayDeclaration: equivalent, a made-up relative path resolves against the working folder, outside the project
      const excludePaths = [dir, ...plan.skills.map((s) => s.sourceDir), ...(plan.projectExcludes ?? [])];
      const skip = await loadProjectSkip(plan.projectRoot, { excludePaths });
      await copyTree(plan.projectRoot, dir, { skip });
    }
    for (const overlay of [plan.baseOverlay, plan.evalOverlay]) {
      // copyTree leaves out its own destination: a workspace folder inside the overlay is not copied into itself.
      if (overlay !== undefined) await copyTree(overlay, dir);
    }
    if (plan.rewriteSkillName) {
      for (const skill of plan.skills) await removeRealNamedCopies(dir, plan.skillsFolder, skill);
    }
    for (const [i, skill] of plan.skills.entries()) {
      const target = skillTargets[i]!;
      await rm(target, { recursive: true, force: true });
      await copyTree(skill.sourceDir, target, { skip: await skillSkip(skill.sourceDir, dir) });
      if (plan.rewriteSkillName) await renameInstalledSkill(target, skill);
    }
    for (const [i, fixture] of plan.fixtures.entries()) {
      const target = fixtureTargets[i]!;
      if (kinds.get(path.resolve(fixture.source)) === "dir") {
        await ensureDir(target);
        await copyTree(fixture.source, target, { skip: leaveOut(fixture.source, dir) });
      } else {
        await mkdir(path.dirname(target), { recursive: true });
        await copyFileReplacing(fixture.source, target);
      }
    }
  } catch (error) {
    throw workspaceError(error, `Could not stage the workspace ${dir}`);
  }
}

function sourcesOf(plan: WorkspacePlan): Source[] {
  const sources: Source[] = [];
  if (plan.projectRoot !== undefined)
    sources.push({ path: plan.projectRoot, what: "Project root", mustBe: "dir" });
  if (plan.baseOverlay !== undefined)
    sources.push({ path: plan.baseOverlay, what: "Base overlay", mustBe: "dir" });
  if (plan.evalOverlay !== undefined) {
    sources.push({ path: plan.evalOverlay, what: "Per-eval overlay", mustBe: "dir" });
  }
  for (const skill of plan.skills)
    sources.push({ path: skill.sourceDir, what: "Skill folder", mustBe: "dir" });
  for (const fixture of plan.fixtures) {
    sources.push({ path: fixture.source, what: `Fixture for ${fixture.target}`, mustBe: "file-or-dir" });
  }
  return sources.map((s) => ({ ...s, path: path.resolve(s.path) }));
}

// Every source is checked before anything is copied, so a vanished fixture or overlay fails the run up front.
async function checkSources(sources: readonly Source[]): Promise<Map<string, "file" | "dir">> {
  const kinds = new Map<string, "file" | "dir">();
  for (const source of sources) {
    let kind: "file" | "dir" | "other";
    try {
      const info = await stat(source.path);
      kind = info.isDirectory() ? "dir" : info.isFile() ? "file" : "other";
    } catch (error) {
      const missing = errnoOf(error) === "ENOENT" || errnoOf(error) === "ENOTDIR";
      throw new SkillgymError(
        "WORKSPACE",
        missing
          ? `${source.what} not found: ${source.path}`
          : `${source.what} cannot be read: ${source.path}`,
        { file: source.path, hint: "check that the path exists and is readable", cause: error },
      );
    }
    if (kind === "other" || (source.mustBe === "dir" && kind !== "dir")) {
      throw new SkillgymError("WORKSPACE", `${source.what} is not a folder: ${source.path}`, {
        file: source.path,
        hint: source.mustBe === "dir" ? "point it at a folder" : "point it at a regular file or a folder",
      });
    }
    kinds.set(source.path, kind);
  }
  return kinds;
}

// Staging writes into `dir`; were a source inside it (or `dir` itself), the copy could overwrite the user's files.
function refuseOverlap(dir: string, sources: readonly Source[]): void {
  for (const source of sources) {
    if (relativeInside(dir, source.path) !== undefined) {
      throw new SkillgymError(
        "WORKSPACE",
        `The workspace ${dir} holds the ${source.what.toLowerCase()} ${source.path}`,
        {
          hint: "choose a workspace folder that is not the project, an overlay, a skill or a fixture, nor holds one",
        },
      );
    }
  }
}

function skillTarget(dir: string, skillsFolder: string, installName: string): string {
  if (installName === "" || installName === "." || installName === ".." || /[/\\]/.test(installName)) {
    throw new SkillgymError(
      "WORKSPACE",
      `Skill install name ${JSON.stringify(installName)} is not a folder name`,
      {
        hint: "use the skill's name, e.g. my-skill",
      },
    );
  }
  return path.join(resolveInside(dir, skillsFolder, "Skills folder"), installName);
}

async function prepareFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (error) {
    throw new SkillgymError(
      "WORKSPACE",
      `Cannot write the workspace folder ${dir}: ${errnoOf(error) ?? error}`,
      {
        file: dir,
        hint: "choose a writable folder with --workspace, or fix the permissions of its parent folder",
        cause: error,
      },
    );
  }
}

// Whatever lies inside the workspace folder is never copied into it.
function leaveOut(source: string, dir: string): SkipRule | undefined {
  const inside = relativeInside(source, dir);
  if (inside === undefined) return undefined;
  return (rel) => isAtOrUnder(rel, inside);
}

// The installed skill is exactly what the skill's hash and package cover: no evals/, secrets, caches or outside links.
async function skillSkip(sourceDir: string, dir: string): Promise<SkipRule> {
  const workspace = leaveOut(sourceDir, dir);
  const files = new Set((await listSkillFiles(sourceDir)).map((f) => f.path));
  const folders = new Set(
    [...files].flatMap((f) =>
      // Stryker disable next-line MethodExpression: equivalent, a file's own path among the folders matches no folder
      f
        .split("/")
        .slice(0, -1)
        .map((_, i, a) => a.slice(0, i + 1).join("/")),
    ),
  );
  return (rel, isDir) =>
    !(isDir ? folders : files).has(rel.normalize("NFC")) || (workspace?.(rel, isDir) ?? false);
}

// A fixture that is, or passes through, a link out of the folder it was found in would copy that outside file in.
async function refuseOutsideFixtures(fixtures: readonly FixtureStaging[]): Promise<void> {
  for (const fixture of fixtures) {
    const source = path.resolve(fixture.source);
    const root = fixture.root ?? path.dirname(source);
    if ((await realInside(root, source)) !== undefined) continue;
    throw new SkillgymError(
      "WORKSPACE",
      `Fixture for ${fixture.target} is a link out of ${root}: ${source}`,
      {
        file: source,
        hint: "copy the file into the suite, skill or project folder instead of linking to it",
      },
    );
  }
}

async function removeRealNamedCopies(dir: string, skillsFolder: string, skill: SkillInstall): Promise<void> {
  const names = new Set([path.basename(path.resolve(skill.sourceDir))]);
  const declared = await readFile(path.join(skill.sourceDir, "SKILL.md")).then(
    frontmatterName,
    () => undefined,
  );
  if (declared !== undefined) names.add(declared);
  for (const name of names) {
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, no name here is empty: frontmatterName gives none for an empty value, and a skill folder is never the root
    if (name === "" || name === "." || name === ".." || /[/\\]/.test(name)) continue;
    // Stryker disable next-line StringLiteral: equivalent, skillTarget has already refused a skills folder outside the workspace
    await rm(path.join(resolveInside(dir, skillsFolder, "Skills folder"), name), {
      recursive: true,
      force: true,
    });
  }
}

async function renameInstalledSkill(target: string, skill: SkillInstall): Promise<void> {
  const file = path.join(target, "SKILL.md");
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch (error) {
    throw new SkillgymError("WORKSPACE", `Skill folder has no SKILL.md to rename: ${skill.sourceDir}`, {
      file: path.join(skill.sourceDir, "SKILL.md"),
      hint: "a skill is a folder holding a SKILL.md",
      cause: error,
    });
  }
  const renamed = renameSkillInFrontmatter(content, skill.installName);
  if (renamed === undefined) {
    throw new SkillgymError(
      "WORKSPACE",
      `SKILL.md has no frontmatter to rename: ${path.join(skill.sourceDir, "SKILL.md")}`,
      {
        file: path.join(skill.sourceDir, "SKILL.md"),
        hint: "start SKILL.md with a '---' line, then name: and description:, then '---'",
      },
    );
  }
  await writeFile(file, renamed);
}
