import type { Stats } from "node:fs";
import { lstat, realpath, stat } from "node:fs/promises";
import * as path from "node:path";
import { toWorkspacePath } from "../../suite/workspace-path.js";
import { relativeInside } from "../../tree/paths.js";

/** Where a check's path leads inside the workspace. */
export type WorkspaceFile =
  | { kind: "refused"; reason: string }
  | { kind: "missing"; rel: string; reason: string }
  | { kind: "found"; rel: string; abs: string; stats: Stats };

// A path is refused when it is absolute, climbs out with `..`, or reaches outside through a symbolic link:
// a check must never grade, or read, a file the run's workspace does not hold.
export async function locateInWorkspace(workspaceDir: string, checkPath: string): Promise<WorkspaceFile> {
  const parsed = toWorkspacePath(checkPath);
  if (!parsed.ok)
    return { kind: "refused", reason: `the path ${JSON.stringify(checkPath)} ${parsed.reason}` };
  const rel = parsed.path;
  const lexical = path.join(workspaceDir, ...rel.split("/"));
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (error) {
    if (!isMissing(error)) throw error;
    const dangling = await lstat(lexical).then(
      () => true,
      // Stryker disable next-line ArrowFunction: equivalent, undefined reads as false below as well
      () => false,
    );
    const reason = dangling ? `${rel} is a symbolic link to a missing target` : `${rel} does not exist`;
    return { kind: "missing", rel, reason };
  }
  const root = await realpath(workspaceDir);
  if (relativeInside(root, real) === undefined) {
    return {
      kind: "refused",
      reason: `${rel} leads outside the workspace (through a symbolic link to ${real})`,
    };
  }
  return { kind: "found", rel, abs: real, stats: await stat(real) };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
