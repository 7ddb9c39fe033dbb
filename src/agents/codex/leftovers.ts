import { readdirSync, readFileSync } from "node:fs";
import { readdir, rmdir, stat } from "node:fs/promises";
import { join } from "node:path";

/** The variable that marks every process of one run, sandboxed commands included. */
export const RUN_MARKER = "SKILLGYM_CODEX_RUN";

// Codex runs each command in a sandbox (bubblewrap on Linux) that starts a new session, outside the agent's process
// group: ending the group leaves a command that is still running. Its environment still carries the run's marker.
function markedProcesses(marker: string): number[] {
  if (process.platform !== "linux") return [];
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").includes(marker)) found.push(Number(entry));
    } catch {}
  }
  return found;
}

/** Kills what a run's sandbox left running and waits (up to `waitMs`) until it is gone. */
export async function endMarkedProcesses(marker: string, waitMs = 2000): Promise<void> {
  const until = Date.now() + waitMs;
  for (;;) {
    const left = markedProcesses(marker);
    if (left.length === 0 || Date.now() > until) return;
    for (const pid of left) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

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
    const dir = join(cwd, name);
    try {
      if ((await readdir(dir)).length === 0) await rmdir(dir);
    } catch {}
  }
}
