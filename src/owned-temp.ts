import { readFileSync, readlinkSync } from "node:fs";

// The process start in clock ticks since boot (Linux), so a reused PID is not taken for the owner; "0" elsewhere.
export function startOf(pid: number | "self"): string | undefined {
  if (process.platform !== "linux") return "0";
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z") return undefined;
    return fields[19];
  } catch {
    // No such process, or it is gone: no start.
  }
  return undefined;
}

// This process's PID namespace (Linux: the inode its /proc link names, `pid:[4026531836]`), "0" where there is none to
// read. A PID names an owner only inside its namespace: two containers sharing one temp folder each see PIDs of their own.
export function pidNamespace(link = "/proc/self/ns/pid"): string {
  if (process.platform !== "linux") return "0";
  try {
    return readlinkSync(link).slice("pid:[".length, -1);
  } catch {}
  // No /proc mounted: no namespace to name, as on other systems.
  return "0";
}

/**
 * `skillgym-<kind>.<pid>.<start>.<pid namespace>-`: a temp folder's name prefix naming its owner, so a later sweep
 * (by a skillgym in the same PID namespace) can judge it.
 */
export function ownedTempPrefix(kind: string): string {
  // Stryker disable next-line StringLiteral: equivalent, this process's own /proc entry is always readable, and elsewhere startOf says "0"
  return `skillgym-${kind}.${process.pid}.${startOf("self") ?? "0"}.${pidNamespace()}-`;
}
