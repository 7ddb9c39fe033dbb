import { type ChildProcess, spawn } from "node:child_process";

/** What skillgym tells the watchdog: a process group (POSIX) or process tree (Windows) to end if skillgym dies. */
export type WatchdogMessage = { add: number } | { remove: number };

// Plain CommonJS for `node -e`: no file to locate next to the compiled code, the same text under tests and in dist/.
// It holds an IPC channel to skillgym; when the channel closes (skillgym exited or died, even of SIGKILL) it ends
// every group still registered: SIGTERM, SIGKILL half a second later (`taskkill /T /F` on Windows), then exits.
export const WATCHDOG_SOURCE = `"use strict";
const { spawn } = require("node:child_process");
const groups = new Set();
for (const name of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(name, () => {});
process.on("message", (message) => {
  if (message && Number.isInteger(message.add)) groups.add(message.add);
  else if (message && Number.isInteger(message.remove)) groups.delete(message.remove);
});
function signalAll(signal) {
  for (const pid of groups) {
    try { process.kill(-pid, signal); } catch {}
  }
}
process.on("disconnect", () => {
  if (groups.size === 0) process.exit(0);
  if (process.platform === "win32") {
    let left = groups.size;
    const done = () => { if (--left === 0) process.exit(0); };
    for (const pid of groups) {
      spawn("taskkill", ["/pid", String(pid), "/T", "/F"], { stdio: "ignore", windowsHide: true })
        .on("error", done)
        .on("exit", done);
    }
    return;
  }
  signalAll("SIGTERM");
  setTimeout(() => {
    signalAll("SIGKILL");
    process.exit(0);
  }, 500);
});
`;

let watchdog: ChildProcess | undefined;

// A module-level singleton, the one exception to "no global state": the watchdog guards the whole process, like
// process.once("exit") does, and is started on first use so every caller of runProcess is covered.
function currentWatchdog(): ChildProcess | undefined {
  if (watchdog?.connected) return watchdog;
  try {
    watchdog = spawn(process.execPath, ["-e", WATCHDOG_SOURCE], {
      stdio: ["ignore", "ignore", "ignore", "ipc"],
      // Its own process group: a Ctrl-C to the terminal's group reaches skillgym, which cleans up, not the watchdog.
      detached: true,
      // Stryker disable next-line BooleanLiteral: Windows only, no other system opens a console window to hide
      windowsHide: true,
    });
  } catch {
    watchdog = undefined;
    return undefined;
  }
  // Neither the process nor its channel keeps skillgym's event loop alive.
  watchdog.on("error", () => {});
  watchdog.unref();
  watchdog.channel?.unref();
  return watchdog;
}

/** The watchdog this process started last, if any: its pid and channel, to look at (it is started on first use). */
export function watchdogProcess(): ChildProcess | undefined {
  return watchdog;
}

function tell(message: WatchdogMessage): void {
  const target = currentWatchdog();
  if (!target?.connected) return;
  target.send(message, () => {});
}

/** Has the process group led by `pid` ended should skillgym die before `releaseGroup(pid)`. */
export function guardGroup(pid: number): void {
  tell({ add: pid });
}

export function releaseGroup(pid: number): void {
  if (watchdog?.connected) watchdog.send({ remove: pid }, () => {});
}
