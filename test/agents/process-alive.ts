import { readdirSync, readFileSync } from "node:fs";

/** Whether a process runs: a zombie (dead, not yet reaped by whoever adopted it) counts as gone. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== "linux") return true;
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

/** Live (not zombie) processes whose environment holds `marker`, this one aside (Linux): an agent and what it started. */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.[0] === "Z") continue;
      if (readFileSync(`/proc/${entry}/environ`, "utf8").includes(marker)) found.push(Number(entry));
    } catch {}
  }
  return found;
}

/** Whether `check` held within `ms`, asked every 50 ms: it returns as soon as it holds. */
export async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** The processes still marked with `marker` once they are all gone or `ms` has passed, whichever comes first. */
export async function leftWith(marker: string, ms: number): Promise<number[]> {
  await waitFor(() => processesWith(marker).length === 0, ms);
  return processesWith(marker);
}
