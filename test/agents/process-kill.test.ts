import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { killTree } from "../../src/agents/process/kill-tree.js";
import { endMarkedProcesses, newRunMarker, RUN_MARKER } from "../../src/agents/process/marked-processes.js";
import { alive } from "./process-alive.js";

// How a run's processes are ended: its process group (killTree), and what moved to another session but carries the
// run's marker in its environment (endMarkedProcesses). Real processes, POSIX.

async function gone(pid: number, withinMs = 5000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !alive(pid);
}

// A detached node process (its own group) that starts a grandchild in the same group and prints the grandchild's pid.
async function parentWithGrandchild(
  exitAfterStart = false,
): Promise<{ child: ChildProcess; grandchild: number }> {
  const source = `
    const { spawn } = require("node:child_process");
    const g = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    g.unref();
    process.stdout.write(String(g.pid) + "\\n", () => { if (${exitAfterStart}) process.exit(0); });
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["-e", source], {
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [line] = (await once(child.stdout as NodeJS.ReadableStream, "data")) as [Buffer];
  const grandchild = Number(line.toString().trim());
  if (exitAfterStart && child.exitCode === null) await once(child, "exit");
  return { child, grandchild };
}

describe.skipIf(process.platform === "win32")("killTree", () => {
  it("ends the child and the processes it started, with the signal asked for", async () => {
    const { child, grandchild } = await parentWithGrandchild();
    const exited = once(child, "exit");
    killTree(child, "SIGKILL");
    const [, signal] = await exited;
    expect(signal).toBe("SIGKILL");
    expect(await gone(grandchild)).toBe(true);
  });

  it("sends SIGTERM when no signal is named", async () => {
    const { child, grandchild } = await parentWithGrandchild();
    const exited = once(child, "exit");
    killTree(child);
    expect((await exited)[1]).toBe("SIGTERM");
    expect(await gone(grandchild)).toBe(true);
  });

  it("still ends the grandchildren after the child itself has exited", async () => {
    const { child, grandchild } = await parentWithGrandchild(true);
    expect(child.exitCode).toBe(0);
    expect(alive(grandchild)).toBe(true);
    killTree(child, "SIGKILL");
    expect(await gone(grandchild)).toBe(true);
  });

  it("ends a child that is not a group leader by its own pid when its group cannot be signalled", async () => {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    await once(child, "spawn");
    const exited = once(child, "exit");
    killTree(child, "SIGKILL");
    expect((await exited)[1]).toBe("SIGKILL");
  });

  it("ends a child that is not a group leader with SIGTERM when no signal is named", async () => {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    await once(child, "spawn");
    const exited = once(child, "exit");
    killTree(child);
    expect((await exited)[1]).toBe("SIGTERM");
  });

  it("does nothing for a child that never started", () => {
    const child = spawn("/no/such/binary-of-skillgym", [], { stdio: "ignore" });
    child.on("error", () => {});
    expect(child.pid).toBeUndefined();
    expect(() => killTree(child, "SIGKILL")).not.toThrow();
  });
});

// Windows' way run on Linux: a stand-in taskkill on PATH notes its arguments and where its output goes, then ends the
// process it names with SIGKILL (the real one's /F).
describe.skipIf(process.platform !== "linux")("killTree on Windows", () => {
  let bin: string;
  let empty: string;
  const path = process.env.PATH;
  const started: ChildProcess[] = [];
  const idle = () => {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    started.push(child);
    return child;
  };
  // The signal that ended the child, or "running" if it still runs after a while.
  const endOf = (child: ChildProcess) =>
    Promise.race([
      once(child, "exit").then(([, signal]) => signal as string),
      new Promise<string>((resolve) => setTimeout(() => resolve("running"), 10_000)),
    ]);
  // Waits until no stand-in taskkill runs: each one started has noted its call by then.
  const settled = async () => {
    const running = () =>
      readdirSync("/proc").some((pid) => {
        try {
          return (
            /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(join(bin, "taskkill"))
          );
        } catch {
          return false;
        }
      });
    while (running()) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const calls = () => {
    try {
      return readFileSync(join(bin, "taskkill.log"), "utf8").trim().split("\n");
    } catch {
      return [];
    }
  };

  beforeAll(() => {
    bin = mkdtempSync(join(tmpdir(), "skillgym-taskkill-"));
    empty = mkdtempSync(join(tmpdir(), "skillgym-no-taskkill-"));
    writeFileSync(
      join(bin, "taskkill"),
      `#!/bin/sh\necho "$* $(readlink /proc/$$/fd/1)" >> "${join(bin, "taskkill.log")}"\nkill -KILL "$2"\n`,
    );
    chmodSync(join(bin, "taskkill"), 0o755);
  });
  afterEach(() => {
    process.env.PATH = path;
    for (const child of started.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    rmSync(join(bin, "taskkill.log"), { force: true });
  });
  afterAll(() => {
    rmSync(bin, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  });

  it("ends the child's tree with taskkill /T /F, whose output stays off the terminal", async () => {
    process.env.PATH = `${bin}:${path}`;
    const child = idle();
    await once(child, "spawn");
    const ended = endOf(child);
    killTree(child, "SIGTERM", "win32");
    expect(await ended).toBe("SIGKILL");
    expect(calls()).toEqual([`/pid ${child.pid} /T /F /dev/null`]);
  });

  it("leaves alone a child that exited or was killed: its pid may be another process's by now", async () => {
    process.env.PATH = `${bin}:${path}`;
    const exitedChild = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    const killedChild = idle();
    await once(killedChild, "spawn");
    killedChild.kill("SIGKILL");
    await Promise.all([once(exitedChild, "exit"), once(killedChild, "exit")]);
    expect([exitedChild.exitCode, killedChild.signalCode]).toEqual([0, "SIGKILL"]);
    killTree(exitedChild, "SIGKILL", "win32");
    killTree(killedChild, "SIGKILL", "win32");
    // A live child's taskkill, started after theirs, to wait on.
    const child = idle();
    await once(child, "spawn");
    const ended = endOf(child);
    killTree(child, "SIGKILL", "win32");
    expect(await ended).toBe("SIGKILL");
    await settled();
    expect(calls()).toEqual([`/pid ${child.pid} /T /F /dev/null`]);
  });

  it("ends the child itself when taskkill cannot be started", async () => {
    process.env.PATH = empty;
    const child = idle();
    await once(child, "spawn");
    const ended = endOf(child);
    killTree(child, "SIGKILL", "win32");
    expect(await ended).toBe("SIGTERM");
  });
});

describe.skipIf(process.platform !== "linux")("endMarkedProcesses", () => {
  it("makes a fresh marker each time, named by the run-marker variable", () => {
    const a = newRunMarker();
    const b = newRunMarker();
    expect(a.variable).toBe(RUN_MARKER);
    expect(RUN_MARKER).toBe("SKILLGYM_RUN_MARKER");
    expect(a.entry).toBe(`${RUN_MARKER}=${a.value}`);
    expect(a.value).not.toBe(b.value);
  });

  it("ends a process in another session that carries the marker, and leaves one with another marker", async () => {
    const mine = newRunMarker();
    const other = newRunMarker();
    const start = (marker: { variable: string; value: string }) => {
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
        detached: true,
        stdio: "ignore",
        env: { ...process.env, [marker.variable]: marker.value },
      });
      child.unref();
      return child;
    };
    const marked = start(mine);
    const unmarked = start(other);
    await Promise.all([once(marked, "spawn"), once(unmarked, "spawn")]);
    try {
      await endMarkedProcesses(mine.entry);
      expect(await gone(marked.pid as number, 1000)).toBe(true);
      expect(alive(unmarked.pid as number)).toBe(true);
    } finally {
      unmarked.kill("SIGKILL");
      marked.kill("SIGKILL");
    }
  });

  it("returns at once when nothing carries the marker", async () => {
    const started = Date.now();
    await endMarkedProcesses(newRunMarker().entry, 10_000);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
