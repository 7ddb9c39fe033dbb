import { type ChildProcess, spawn } from "node:child_process";

// Kills the child and everything it started: a process group on POSIX (the child is spawned detached), taskkill /T
// on Windows. The group is signalled even after the child itself exited, so grandchildren left behind die too.
// `platform` is this system's; a parameter so Windows' way can be run (with a stand-in taskkill) on any system.
export function killTree(
  child: ChildProcess,
  signal: NodeJS.Signals = "SIGTERM",
  platform: NodeJS.Platform = process.platform,
): void {
  if (child.pid === undefined) return;
  if (platform === "win32") {
    // A pid is reused once its process is gone: taskkill by pid only while the child runs.
    const childAlive = child.exitCode === null && child.signalCode === null;
    if (!childAlive) return;
    // Stryker disable next-line BooleanLiteral: Windows only, no other system opens a console window to hide
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
    // No such group (the child was not spawned detached, or the group is gone): the child by its pid; kill() of a
    // child that already exited does nothing.
    child.kill(signal);
  }
}
