import { rmdir, stat } from "node:fs/promises";
import { join } from "node:path";

// The folders Codex's sandbox protects inside a writable workspace; it creates a missing one as a mount point and
// removes it after the command, unless the run was ended first.
const MOUNT_POINTS = [".git", ".agents", ".codex", ".aws"];

export async function missingMountPoints(cwd: string): Promise<string[]> {
  const missing: string[] = [];
  for (const name of MOUNT_POINTS) {
    try {
      await stat(join(cwd, name));
    } catch {
      missing.push(name);
    }
  }
  return missing;
}

/** Removes the empty mount points the sandbox left in a workspace where they did not exist before the run. */
export async function removeLeftMountPoints(cwd: string, missingBefore: readonly string[]): Promise<void> {
  for (const name of missingBefore) {
    // rmdir removes only an empty folder: one the run put files in stays.
    try {
      await rmdir(join(cwd, name));
    } catch {}
  }
}
