import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import { SkillgymError } from "../errors.js";
import { type StoreRequest, storeSettings } from "../run/options.js";
import {
  type Companion,
  type ConditionSets,
  type ContextCondition,
  checkConditionSets,
  loadContext,
  loadInstalled,
  type ProjectCondition,
  projectSnapshotDir,
  snapshotProject,
  withSuiteConditions,
} from "../triggers/index.js";
import { createTempRoot } from "../workspace/temp-root.js";
import type { CatalogMember } from "./discover.js";

/** The conditions a catalog's runs are made under, as given on the command line. */
export interface CatalogConditionOptions {
  /** `--project-root`: each run starts in a copy of this project. */
  project?: string;
  /** `--installed`: folders of skill folders, every skill installed beside the library as a rival. */
  installed?: string[];
  /** `--context`: a prior conversation each run continues. */
  context?: string;
  /** `--conditions`: "real" (the default) or "clean"; side by side is refused. */
  conditions?: ConditionSets;
}

/** The conditions checked and read, before any agent starts; the project is snapshot separately (it is copied). */
export interface CatalogConditions {
  project?: string;
  /** The skills of `--installed`, each under its own name. */
  installed: Companion[];
  /** The library folders they came from. */
  installedDirs: string[];
  context?: ContextCondition;
}

/**
 * The catalog's conditions: the flags, then the `"conditions"` of an evals.json in the catalog folder for what the
 * flags left out. A catalog is one matrix: the clean room and the real conditions side by side would be two, so
 * `clean,real` is refused; `clean` alone leaves the given conditions out.
 */
export async function resolveCatalogConditions(
  given: CatalogConditionOptions,
  root: string,
  members: readonly CatalogMember[],
): Promise<CatalogConditions> {
  const options = await withSuiteConditions(given, { dir: root });
  const sets = options.conditions;
  if (sets?.clean && sets.real)
    throw new SkillgymError(
      "USAGE",
      `${given.conditions ? "--conditions" : `${resolve(root, "evals.json")}: conditions.side_by_side`}: catalog does not run the clean room and the real conditions side by side`,
      {
        hint: "a catalog writes one matrix: run it once with --conditions clean and once under the conditions, each into its own catalog-<N>",
      },
    );
  if (sets) checkConditionSets(sets, options);
  if (sets?.clean) return { installed: [], installedDirs: [] };
  // No rival may take a library skill's name: the runs could not tell which of the two fired.
  const library = members.map((m) => ({ sourceDir: m.dir, installName: m.name }));
  // Stryker disable next-line StringLiteral: equivalent, no skill is under test here and no valid skill has another made-up name
  const installed = await loadInstalled(options.installed ?? [], "", library);
  const context = options.context ? await loadContext(options.context) : undefined;
  return {
    ...(options.project ? { project: resolve(options.project) } : {}),
    installed,
    installedDirs: (options.installed ?? []).map((d) => resolve(d)),
    ...(context ? { context } : {}),
  };
}

/**
 * The project's snapshot for a catalog (`--project-root`), made once into `tempRoot`. The copy leaves out the library
 * (its skills are installed under their run names), each skill's suite, the workspace and the result store.
 */
export function catalogProject(
  project: string,
  inputs: { root: string; members: readonly CatalogMember[]; workspace: string; store?: StoreRequest },
  tempRoot: string,
): Promise<ProjectCondition> {
  const leaveOut = [
    inputs.root,
    ...inputs.members.flatMap((m) => (m.triggersFile ? [m.dir, m.triggersFile] : [m.dir])),
    inputs.workspace,
  ];
  if (inputs.store) leaveOut.push(storeSettings(inputs.store, inputs.workspace).dir);
  return snapshotProject(project, leaveOut, projectSnapshotDir(tempRoot));
}

/** The project's tree hash for a dry run: the copy a run would start in, made, hashed and removed. */
export async function catalogProjectHash(
  project: string,
  inputs: Parameters<typeof catalogProject>[1],
): Promise<ProjectCondition> {
  const tempRoot = await createTempRoot("catalog");
  try {
    return await catalogProject(project, inputs, tempRoot);
  } finally {
    await rm(tempRoot, {
      recursive: true,
      // Stryker disable next-line BooleanLiteral: equivalent, the temp root always exists here (made above, swept only when its owner is dead)
      force: true,
    });
  }
}
