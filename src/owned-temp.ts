import { readFileSync } from "node:fs";

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

/** `skillgym-<kind>.<pid>.<start>-`: a temp folder's name prefix naming its owner, so a later sweep can judge it. */
export function ownedTempPrefix(kind: string): string {
  // Stryker disable next-line StringLiteral: equivalent, this process's own /proc entry is always readable, and elsewhere startOf says "0"
  return `skillgym-${kind}.${process.pid}.${startOf("self") ?? "0"}-`;
}
