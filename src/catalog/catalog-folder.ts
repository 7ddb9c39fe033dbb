import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { CatalogPlan } from "../contracts/catalog.js";
import { readJsonIfPresent } from "../runlog/atomic-write.js";
import { planHash, type Shard } from "../shard/index.js";
import { hashSkill } from "../skill/index.js";
import { type ContextCondition, conditionKeyParts, type ProjectCondition } from "../triggers/index.js";
import type { CatalogConditions } from "./conditions.js";
import type { CatalogMember } from "./discover.js";
import type { CatalogRunSpec } from "./plan.js";

export const PLAN_FILE = "catalog-plan.json";

/** A catalog run's identity for sharding: whose query (place and text) and the run number. */
export function catalogRunIdentity(spec: CatalogRunSpec): string {
  return JSON.stringify(["catalog", spec.owner, spec.queryIndex, spec.query, spec.runNumber]);
}

/** The conditions a catalog's runs are made under, as its plan needs them: the project already snapshot. */
export type PlannedConditions = Pick<CatalogConditions, "installed" | "installedDirs"> & {
  project?: Pick<ProjectCondition, "root" | "hash">;
  context?: Pick<ContextCondition, "file" | "hash">;
};

/**
 * What defines a catalog: the library's content, the runs, the agent, the conditions; a shard adds its place and the
 * plan's hash.
 */
export async function catalogPlanOf(
  root: string,
  members: readonly CatalogMember[],
  options: { runs: number; only?: string[]; model?: string; timeoutSeconds: number; shard?: Shard },
  agent: string,
  conditions: PlannedConditions = { installed: [], installedDirs: [] },
): Promise<CatalogPlan> {
  const only = options.only ? [...options.only].sort() : undefined;
  const { project, context } = conditions;
  return {
    dir: root,
    skills: await Promise.all(members.map(async (m) => ({ name: m.name, hash: await hashSkill(m.dir) }))),
    runs_per_query: options.runs,
    ...(only ? { only } : {}),
    agent,
    ...(options.model ? { model: options.model } : {}),
    timeout_ms: options.timeoutSeconds * 1000,
    ...(options.shard
      ? {
          shard: {
            ...options.shard,
            // Machines hold the library at different paths: the hash is of names, descriptions and queries only.
            plan_hash: planHash({
              kind: "catalog",
              skills: members.map((m) => ({ name: m.name, description: m.description, queries: m.queries })),
              runs: options.runs,
              only,
              agent,
              model: options.model,
              timeout_ms: options.timeoutSeconds * 1000,
              ...(await conditionKeyParts(conditions)),
            }),
          },
        }
      : {}),
    ...(conditions.installedDirs.length > 0 ? { installed: conditions.installedDirs } : {}),
    ...(project ? { project_root: project.root, project_hash: project.hash } : {}),
    ...(context ? { context: context.file, context_hash: context.hash } : {}),
    status: "running",
  };
}

const samePlan = (a: CatalogPlan, b: CatalogPlan) =>
  planHash({ ...a, status: "" }) === planHash({ ...b, status: "" });

/**
 * The folder a catalog writes: the latest `catalog-<N>` when it is an unfinished catalog of the same plan (a
 * resume: its finished runs are kept), else a new `catalog-<N+1>`. Reads only (a dry run says it, nothing is made).
 */
export async function catalogFolderFor(
  workspace: string,
  plan: CatalogPlan,
): Promise<{ dir: string; resumed: boolean }> {
  const numbers = (await readdir(workspace).catch(() => [] as string[]))
    .map((name) => /^catalog-(\d+)$/.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  const latest = Math.max(0, ...numbers);
  if (latest > 0) {
    const dir = join(workspace, `catalog-${latest}`);
    const earlier = CatalogPlan.safeParse(await readJsonIfPresent(join(dir, PLAN_FILE)));
    if (earlier.success && earlier.data.status !== "complete" && samePlan(earlier.data, plan))
      return { dir, resumed: true };
  }
  return { dir: join(workspace, `catalog-${latest + 1}`), resumed: false };
}

/** The folder a catalog writes (see `catalogFolderFor`), made. */
export async function catalogFolder(
  workspace: string,
  plan: CatalogPlan,
): Promise<{ dir: string; resumed: boolean }> {
  await mkdir(workspace, { recursive: true });
  const found = await catalogFolderFor(workspace, plan);
  if (!found.resumed) await mkdir(found.dir);
  return found;
}
