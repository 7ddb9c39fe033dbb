import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProcess } from "../../src/agents/process/run-process.js";

const posix = process.platform !== "win32";
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-supervisor-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
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

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

function node(script: string) {
  return {
    command: process.execPath,
    args: ["-e", script],
    cwd: dir,
    env: { ...process.env },
    timeoutMs: 10_000,
  };
}

describe("the agent's supervisor", () => {
  it("reports the agent's own exit code and signal, not its own", async () => {
    const exited = await runProcess(node("process.exit(7)"));
    expect([exited.exitCode, exited.signal]).toEqual([7, null]);
    const killed = await runProcess(node('process.kill(process.pid, "SIGKILL")'));
    expect([killed.exitCode, killed.signal]).toEqual([null, posix ? "SIGKILL" : null]);
    if (!posix) return;
    for (const signal of ["SIGTERM", "SIGPIPE", "SIGUSR1"] as const) {
      const shell = { command: "/bin/sh", args: ["-c", `kill -s ${signal.slice(3)} $$`] };
      const ended = await runProcess({ ...node(""), ...shell });
      expect([ended.exitCode, ended.signal]).toEqual([null, signal]);
    }
  });

  it("passes arguments that look like Node's own flags through to the agent", async () => {
    const lines: string[] = [];
    await runProcess({
      ...node("console.log(JSON.stringify(process.argv.slice(1)))"),
      args: ["-e", "console.log(JSON.stringify(process.argv.slice(1)))", "--", "-p", "--version", "a b"],
      onLine: (line) => {
        lines.push(line);
        return undefined;
      },
    });
    expect(lines).toEqual([JSON.stringify(["-p", "--version", "a b"])]);
  });

  // The built library is what a user runs; a SIGKILL leaves it no chance to clean up.
  it.skipIf(!posix)(
    "ends the agent and its children when skillgym is killed with SIGKILL",
    async () => {
      const built = resolve("dist/agents/process/run-process.js");
      expect(existsSync(built), "run `npm run build` first").toBe(true);
      const agentPid = join(dir, "agent.pid");
      const grandPid = join(dir, "grandchild.pid");
      const grand = `require("fs").writeFileSync(${JSON.stringify(grandPid)}, String(process.pid)); process.on("SIGTERM", () => {}); setInterval(() => {}, 1000);`;
      const agent = `require("fs").writeFileSync(${JSON.stringify(agentPid)}, String(process.pid)); require("child_process").spawn(process.execPath, ["-e", ${JSON.stringify(grand)}], { stdio: "ignore" }); setInterval(() => {}, 1000);`;
      const host = `import { runProcess } from ${JSON.stringify(pathToFileURL(built).href)};
      await runProcess({ command: process.execPath, args: ["-e", ${JSON.stringify(agent)}], cwd: ${JSON.stringify(dir)}, env: process.env, timeoutMs: 600000 });`;
      const skillgym = spawn(process.execPath, ["--input-type=module", "-e", host], { stdio: "ignore" });
      const gone = new Promise((r) => skillgym.once("exit", r));
      const started = await waitFor(() => existsSync(agentPid) && existsSync(grandPid), 10_000);
      expect(started).toBe(true);
      const pids = [agentPid, grandPid].map((f) => Number(readFileSync(f, "utf8")));
      expect(pids.every(isAlive)).toBe(true);

      skillgym.kill("SIGKILL");
      await gone;
      const ended = await waitFor(() => !pids.some(isAlive), 5000);
      for (const pid of pids.filter(isAlive)) process.kill(pid, "SIGKILL");
      expect(ended).toBe(true);
    },
    20_000,
  );
});
