import type { Check } from "../../contracts/checks.js";
import type { CheckContext, CheckVerdict } from "./context.js";
import { plural } from "./evidence.js";
import { locateInWorkspace } from "./workspace-file.js";

type FileExistsCheck = Extract<Check, { type: "file_exists" }>;

export function describeFileExists(check: FileExistsCheck): string {
  return `${check.path} exists`;
}

export async function gradeFileExists(check: FileExistsCheck, ctx: CheckContext): Promise<CheckVerdict> {
  const found = await locateInWorkspace(ctx.workspaceDir, check.path);
  if (found.kind !== "found") return { passed: false, evidence: found.reason };
  const what = found.stats.isDirectory()
    ? "a directory"
    : `a file of ${plural(found.stats.size, "byte", "bytes")}`;
  const created = ctx.changes.created.includes(found.rel) ? ", created by the run" : "";
  return { passed: true, evidence: `${found.rel} exists (${what}${created})` };
}
