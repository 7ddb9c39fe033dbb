import { cp, mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Metrics } from "../contracts/metrics.js";
import { type RunWorkspaceInput, runWorkspacePlan } from "../run/workspace-plan.js";
import { METRICS_FILE, runPaths } from "../runlog/layout.js";
import { readRecordIfValid } from "../runlog/read-record.js";
import { stageWorkspace } from "../workspace/index.js";

export interface RunChanges {
  created: string[];
  modified: string[];
  deleted: string[];
}

/** The run's changes as recorded in outputs/metrics.json (created, modified, deleted files). */
export async function recordedChanges(runDir: string): Promise<RunChanges> {
  const data = ((await readRecordIfValid(runPaths(runDir).metrics, Metrics)) ?? {}) as {
    files_created?: string[];
    files_modified?: unknown;
    files_deleted?: unknown;
  };
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  return {
    created: list(data.files_created),
    modified: list(data.files_modified),
    deleted: list(data.files_deleted),
  };
}

/**
 * Rebuilds a run's finished workspace without running the agent again: the same staging as the run, then the
 * files it created or changed (kept in outputs/), minus the files it deleted. Re-grading checks run in it.
 */
export async function rebuildWorkspace(runDir: string, plan: RunWorkspaceInput): Promise<RunChanges> {
  await stageWorkspace(runWorkspacePlan(plan));
  const changes = await recordedChanges(runDir);
  for (const path of [...changes.created, ...changes.modified]) {
    if (path === METRICS_FILE) continue; // outputs/metrics.json is ours
    const target = join(plan.dir, ...path.split("/"));
    await mkdir(dirname(target), { recursive: true });
    // Stryker disable next-line ObjectLiteral: equivalent, cp replaces an existing file by default
    await cp(join(runPaths(runDir).outputs, ...path.split("/")), target, { force: true });
  }
  for (const path of changes.deleted)
    await rm(join(plan.dir, ...path.split("/")), { recursive: true, force: true });
  return changes;
}
