import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  guardGroup,
  releaseGroup,
  WATCHDOG_SOURCE,
  watchdogProcess,
} from "../../src/agents/process/watchdog.js";
import { alive, waitFor } from "./process-alive.js";

const posix = process.platform !== "win32";
// The built library is what a user runs; a SIGKILL leaves it no chance to clean up.
const built = resolve("dist/agents/process/run-process.js");
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-watchdog-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// A pid file can be seen between its creation and its write: only a positive number counts.
function pidIn(file: string): number {
  try {
    const pid = Number(readFileSync(file, "utf8"));
    return Number.isInteger(pid) && pid > 0 ? pid : 0;
  } catch {
    return 0;
  }
}

// Live watchdogs started by `parent` (Linux): found by their source text on the command line.
function watchdogsOf(parent: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z" || Number(ppid) !== parent) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(WATCHDOG_SOURCE)) found.push(Number(entry));
    } catch {}
  }
  return found;
}

// A process that outlived the watchdog, for the failure message: its pid, and on Linux its state and command line.
function described(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").slice(0, 80);
    return `${pid} (${state}) ${command}`;
  } catch {
    return String(pid);
  }
}

/** A skillgym stand-in: an ES module that imports the built runProcess and runs `body`. */
function host(body: string) {
  expect(existsSync(built), "run `npm run build` first").toBe(true);
  const source = `import { runProcess } from ${JSON.stringify(pathToFileURL(built).href)};\n${body}`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], { stdio: "ignore" });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return { child, exited };
}

describe("the watchdog", () => {
  it.skipIf(!posix)(
    "ends the agent and its children when skillgym is killed with SIGKILL, then exits",
    async () => {
      const agentPid = join(dir, "agent.pid");
      const grandPid = join(dir, "grandchild.pid");
      const grand = `require("fs").writeFileSync(${JSON.stringify(grandPid)}, String(process.pid)); process.on("SIGTERM", () => {}); setInterval(() => {}, 1000);`;
      const agent = `require("fs").writeFileSync(${JSON.stringify(agentPid)}, String(process.pid)); require("child_process").spawn(process.execPath, ["-e", ${JSON.stringify(grand)}], { stdio: "ignore" }); setInterval(() => {}, 1000);`;
      const skillgym = host(
        `await runProcess({ command: process.execPath, args: ["-e", ${JSON.stringify(agent)}], cwd: ${JSON.stringify(dir)}, env: process.env, timeoutMs: 600000 });`,
      );
      const started = await waitFor(() => pidIn(agentPid) > 0 && pidIn(grandPid) > 0, 10_000);
      expect(started).toBe(true);
      const pids = [agentPid, grandPid].map(pidIn);
      expect(pids.every(alive)).toBe(true);
      const watchdogs = process.platform === "linux" ? watchdogsOf(skillgym.child.pid ?? 0) : [];

      skillgym.child.kill("SIGKILL");
      await skillgym.exited;
      // Under load the watchdog may still be starting when skillgym dies: it ends the group once it reads the channel.
      const ended = await waitFor(() => ![...pids, ...watchdogs].some(alive), 15_000);
      const left = [...pids, ...watchdogs].filter(alive).map(described);
      for (const pid of [...pids, ...watchdogs].filter(alive)) process.kill(pid, "SIGKILL");
      expect(ended, `still running: ${left.join("; ")}`).toBe(true);
      if (process.platform === "linux") expect(watchdogs).toHaveLength(1);
    },
    40_000,
  );

  it.skipIf(process.platform !== "linux")(
    "is one process for many concurrent runs, keeps no run of skillgym alive and exits with it",
    async () => {
      const ready = join(dir, "batch.started");
      const release = join(dir, "batch.release");
      const agent = `require("fs").writeFileSync(${JSON.stringify(ready)} + "." + process.pid, ""); const wait = setInterval(() => { if (require("fs").existsSync(${JSON.stringify(release)})) clearInterval(wait); }, 20);`;
      const skillgym = host(
        `await Promise.all(Array.from({ length: 8 }, () => runProcess({ command: process.execPath, args: ["-e", ${JSON.stringify(agent)}], cwd: ${JSON.stringify(dir)}, env: process.env, timeoutMs: 60000 })));`,
      );
      const pid = skillgym.child.pid ?? 0;
      const allStarted = await waitFor(
        () => readdirSync(dir).filter((name) => name.startsWith("batch.started.")).length === 8,
        20_000,
      );
      const watchdogs = watchdogsOf(pid);
      writeFileSync(release, "");
      // The host has nothing left to do once its runs ended: an unref'd watchdog must not hold it.
      const exited = await Promise.race([
        skillgym.exited.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 10_000)),
      ]);
      if (!exited) skillgym.child.kill("SIGKILL");
      const gone = await waitFor(() => !watchdogs.some(alive), 15_000);
      for (const stray of watchdogs.filter(alive)) process.kill(stray, "SIGKILL");
      expect(allStarted).toBe(true);
      expect(watchdogs).toHaveLength(1);
      expect(exited).toBe(true);
      expect(gone).toBe(true);
    },
    60_000,
  );
});

// The watchdog this test process starts, told what to guard through guardGroup and releaseGroup; closing its channel
// stands for skillgym's death.
describe.skipIf(process.platform !== "linux")("the watchdog of this process", () => {
  const sleepers: ChildProcess[] = [];
  // A process group of its own, as runProcess starts an agent.
  async function group(): Promise<number> {
    const child = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    sleepers.push(child);
    await once(child, "spawn");
    return child.pid as number;
  }
  // Lets the current watchdog go (it ends what it guards, nothing here), so the next guard starts a new one.
  async function letGo(): Promise<void> {
    const dog = watchdogProcess();
    if (!dog?.connected) return;
    const exited = once(dog, "exit");
    dog.disconnect();
    await exited;
  }
  afterEach(async () => {
    await letGo();
    for (const child of sleepers.splice(0)) child.kill("SIGKILL");
  });

  it("ends the groups still guarded when skillgym's channel closes, then exits", async () => {
    await letGo();
    const [guarded, released] = [await group(), await group()];
    guardGroup(guarded);
    guardGroup(released);
    releaseGroup(released);
    const dog = watchdogProcess();
    expect(dog?.connected).toBe(true);
    const exited = waitFor(() => dog?.exitCode === 0, 10_000);
    dog?.disconnect();
    expect(await waitFor(() => !alive(guarded), 15_000)).toBe(true);
    expect(await exited).toBe(true);
    expect(alive(released)).toBe(true);
  });

  it("leads a process group of its own, out of reach of a signal to skillgym's group", async () => {
    await letGo();
    const pid = await group();
    guardGroup(pid);
    releaseGroup(pid);
    const dog = watchdogProcess()?.pid ?? 0;
    const stat = readFileSync(`/proc/${dog}/stat`, "utf8");
    const processGroup = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
    expect(processGroup).toBe(dog);
  });

  it("keeps no run of skillgym alive: neither the watchdog nor its channel holds the event loop", async () => {
    await letGo();
    const pid = await group();
    sleepers[0]?.unref();
    // A child process or a pipe that is not unref'd keeps Node running.
    const holding = () =>
      process.getActiveResourcesInfo().filter((kind) => kind === "ProcessWrap" || kind === "PipeWrap");
    const before = holding();
    guardGroup(pid);
    releaseGroup(pid);
    expect(watchdogProcess()?.connected).toBe(true);
    expect(holding()).toEqual(before);
  });

  it("leaves a run unguarded, not failed, when the watchdog cannot start", async () => {
    await letGo();
    const pid = await group();
    const node = process.execPath;
    process.execPath = join(dir, "no-such-node");
    try {
      guardGroup(pid);
    } finally {
      process.execPath = node;
    }
    const dog = watchdogProcess();
    expect(await waitFor(() => dog?.connected === false, 15_000)).toBe(true);
    expect(dog?.pid).toBeUndefined();
  });
});
