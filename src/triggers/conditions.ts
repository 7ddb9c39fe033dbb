import { join, resolve } from "node:path";
import { hashTree } from "../store/index.js";
import { stageWorkspace } from "../workspace/index.js";
import { type Companion, loadCompanions, loadInstalled } from "./companions.js";
import type { ContextCondition } from "./context.js";

/** The user's project as trigger runs see it (`--project-root`): one copy per invocation, and its hash. */
export interface ProjectCondition {
  /** The user's folder: only ever read, once, to make the snapshot. */
  root: string;
  /** The copy every run's workspace is staged from, so each run (and the key) sees the same tree. */
  snapshot: string;
  /** The snapshot's tree hash: the store key's `project`. */
  hash: string;
}

/** The skills a trigger run finds installed beside the one under test. */
export interface ConditionSkills {
  /** `--with-skills`: single skill folders. */
  companions: Companion[];
  /** `--installed`: every skill of each library folder. */
  installed: Companion[];
}

/**
 * The skills of `--with-skills` and `--installed`, checked before any agent starts: a folder that is missing, holds
 * no skill, or installs a name twice (or the name of the skill under test) is a usage error naming it.
 */
export async function loadConditionSkills(
  options: { withSkills?: readonly string[]; installed?: readonly string[] },
  skillName: string,
): Promise<ConditionSkills> {
  const companions = await loadCompanions(options.withSkills ?? [], skillName);
  const installed = await loadInstalled(options.installed ?? [], skillName, companions);
  return { companions, installed };
}

/**
 * Copies the project into `into` as an eval run's workspace copies it (its .gitignore and the usual exclusions
 * respected, `leaveOut` — the skill, the suite, skillgym's own folders — left out), and hashes the copy. Reading the
 * user's folder once means every run and the store key see the same tree, even if the user edits it meanwhile.
 */
export async function snapshotProject(
  root: string,
  leaveOut: readonly string[],
  into: string,
): Promise<ProjectCondition> {
  const dir = resolve(into);
  // No skill is installed in the snapshot, so the skills folder is never used.
  await stageWorkspace({
    dir,
    projectRoot: resolve(root),
    projectExcludes: [...leaveOut],
    skills: [],
    // Stryker disable next-line StringLiteral: equivalent, with no skill to install the skills folder is never used
    skillsFolder: "",
    fixtures: [],
  });
  return { root: resolve(root), snapshot: dir, hash: await hashTree(dir) };
}

/** Where a trigger invocation keeps its project snapshot inside its temp root. */
export const projectSnapshotDir = (tempRoot: string) => join(tempRoot, "project");

/** What trigger-results.json (and catalog.json) say of the conditions; nothing in the clean room, as before them. */
export function conditionsRecord(
  project: ProjectCondition | undefined,
  beside: readonly Companion[],
  context?: ContextCondition,
) {
  if (!project && beside.length === 0 && !context) return {};
  return {
    conditions: {
      ...(project ? { project_root: project.root, project_hash: project.hash } : {}),
      ...(beside.length > 0 ? { installed: beside.map((c) => c.installName) } : {}),
      ...(context
        ? { context: context.file, context_hash: context.hash, context_turns: context.turns.length }
        : {}),
    },
  };
}
