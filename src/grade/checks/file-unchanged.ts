import type { Check } from "../../contracts/checks.js";
import { isAtOrUnder } from "../../tree/paths.js";
import type { CheckContext, CheckVerdict } from "./context.js";
import { locateInWorkspace } from "./workspace-file.js";

type FileUnchangedCheck = Extract<Check, { type: "file_unchanged" }>;

export function describeFileUnchanged(check: FileUnchangedCheck): string {
  return `${check.path} is left unchanged`;
}

// A folder is unchanged when nothing at or under it was created, modified or deleted.
export async function gradeFileUnchanged(
  check: FileUnchangedCheck,
  ctx: CheckContext,
): Promise<CheckVerdict> {
  const found = await locateInWorkspace(ctx.workspaceDir, check.path);
  if (found.kind === "refused") return { passed: false, evidence: found.reason };
  const touched = (list: readonly string[]) => list.filter((file) => isAtOrUnder(file, found.rel));
  const verdicts: [string, readonly string[]][] = [
    ["deleted", touched(ctx.changes.deleted)],
    ["modified", touched(ctx.changes.modified)],
    ["created", touched(ctx.changes.created)],
  ];
  const changed = verdicts.filter(([, files]) => files.length > 0);
  if (changed.length > 0) {
    const evidence = changed.map(([how, files]) => `The run ${how} ${listFiles(files)}`).join("; ");
    return { passed: false, evidence };
  }
  if (found.kind === "missing") return { passed: false, evidence: found.reason };
  const what = found.stats.isDirectory() ? "nothing in it was" : "it was not";
  return {
    passed: true,
    evidence: `${found.rel} exists and ${what} created, modified or deleted by the run`,
  };
}

function listFiles(files: readonly string[]): string {
  const shown = files.slice(0, 5).join(", ");
  return files.length > 5 ? `${shown} and ${files.length - 5} more` : shown;
}
