import { type ChildProcess, spawn } from "node:child_process";

// Kills the child and everything it started: a process group on POSIX (the child is spawned detached), taskkill /T on Windows.
export function killTree(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  if (process.platform === "win32") {
    spawn("taskkill", ["/pid", String(child.pid), "/T", "/F"], { stdio: "ignore", windowsHide: true }).on(
      "error",
      () => {
        child.kill();
      },
    );
    return;
  }
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}
