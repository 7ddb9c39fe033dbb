/** Tells skillgym that the agent could not be started at all (the supervisor itself did start). */
export interface SupervisorMessage {
  spawnError: string;
}

export function isSupervisorMessage(value: unknown): value is SupervisorMessage {
  return typeof value === "object" && value !== null && typeof Reflect.get(value, "spawnError") === "string";
}

// Plain CommonJS for `node -e`: no file to locate next to the compiled code, the same text under tests and in dist/.
// It leads the agent's process group and holds an IPC channel to skillgym; when the channel closes without a word
// (skillgym died, even of SIGKILL) it ends the whole group. It exits as the agent did: same code, same signal.
export const SUPERVISOR_SOURCE = `"use strict";
const { spawn } = require("node:child_process");
const { constants } = require("node:os");
const [command, ...args] = process.argv.slice(1);
const posix = process.platform !== "win32";
let agent;
let orphaned = false;
for (const name of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(name, () => {});
function reportSpawnError(error) {
  if (!process.connected) process.exit(127);
  process.send({ spawnError: error.message }, () => process.exit(127));
}
function killGroup(signal) {
  if (posix) {
    try { process.kill(-process.pid, signal); } catch {}
  } else if (agent && agent.pid !== undefined) {
    spawn("taskkill", ["/pid", String(agent.pid), "/T", "/F"], { stdio: "ignore", windowsHide: true })
      .on("exit", () => process.exit(1))
      .on("error", () => { agent.kill(); process.exit(1); });
  } else {
    process.exit(1);
  }
}
process.on("disconnect", () => {
  orphaned = true;
  killGroup("SIGTERM");
  if (posix) setTimeout(() => killGroup("SIGKILL"), 500);
});
try {
  agent = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"], windowsHide: true });
} catch (error) {
  reportSpawnError(error);
}
if (agent) {
  agent.on("error", reportSpawnError);
  agent.on("exit", (code, signal) => {
    if (orphaned) return;
    if (signal) {
      // Adding and removing a listener restores the default action, also for SIGPIPE and SIGUSR1 that Node takes over.
      try { process.on(signal, () => {}); } catch {}
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      setTimeout(() => process.exit(128 + (constants.signals[signal] || 0)), 200);
    } else {
      process.exit(code === null ? 1 : code);
    }
  });
}
`;
