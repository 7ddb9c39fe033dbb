import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** The variable that marks every process of one agent run, whatever session or group it moved to. */
export const RUN_MARKER = "SKILLGYM_RUN_MARKER";

/** A fresh marker: set `RUN_MARKER` to its value in the agent's environment, then end what carries it. */
export function newRunMarker(): { variable: string; value: string; entry: string } {
  const value = randomUUID();
  return { variable: RUN_MARKER, value, entry: `${RUN_MARKER}=${value}` };
}

// Agents start commands in a new session (Claude Code's Bash tool, Codex's bubblewrap sandbox), outside the process
// group the run ends; their environment still carries the run's marker. Linux only: /proc shows every environment.
function markedProcesses(entry: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync("/proc")) {
    // Stryker disable next-line LogicalOperator: equivalent, /proc/self and this process's own environment (fixed at its start) hold no marker made since
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(entry)) found.push(Number(pid));
    } catch {}
  }
  return found;
}

/**
 * Kills what a run left running in other sessions and waits (up to `waitMs`) until it is gone. `platform` is this
 * system's; a parameter so the other systems' way (nothing to find) can be run here too.
 */
export async function endMarkedProcesses(
  entry: string,
  waitMs = 2000,
  platform: NodeJS.Platform = process.platform,
): Promise<void> {
  if (platform !== "linux") return;
  const until = Date.now() + waitMs;
  // A process caught in its exec may show an empty environment for a moment: it is gone when two scans miss it.
  let missed = 0;
  for (;;) {
    const left = markedProcesses(entry);
    missed = left.length === 0 ? missed + 1 : 0;
    if (missed === 2 || Date.now() > until) return;
    for (const pid of left) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
    await sleep(50);
  }
}
