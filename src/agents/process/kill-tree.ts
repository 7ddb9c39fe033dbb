import { type ChildProcess, spawn } from "node:child_process";

// Kills the child and everything it started: a process group on POSIX (the child is spawned detached), taskkill /T
// on Windows. The group is signalled even after the child itself exited, so grandchildren left behind die too.
export function killTree(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): void {
  if (child.pid === undefined) return;
  const childAlive = child.exitCode === null && child.signalCode === null;
  if (process.platform === "win32") {
    if (!childAlive) return;
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
    if (childAlive) child.kill(signal);
  }
}
