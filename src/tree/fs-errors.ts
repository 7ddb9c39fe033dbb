import { SkillgymError } from "../errors.js";

const permissionCodes = new Set(["EACCES", "EPERM", "EROFS"]);

export function errnoOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

// File-system failures leave this folder as WORKSPACE errors whose message names the path (Node's message does).
export function workspaceError(error: unknown, doing: string): SkillgymError {
  if (error instanceof SkillgymError) return error;
  const code = errnoOf(error);
  const detail = error instanceof Error ? error.message : String(error);
  let hint = "check that the paths exist and are readable, and that the workspace folder is writable";
  if (code !== undefined && permissionCodes.has(code)) {
    hint = "fix the permissions, or choose a writable folder with --workspace";
  } else if (code === "ENOSPC") {
    hint = "free some disk space, or choose another folder with --workspace";
  } else if (code === "ENOENT") {
    hint = "a file vanished while it was being copied; run again";
  }
  return new SkillgymError("WORKSPACE", `${doing}: ${detail}`, { hint, cause: error });
}
