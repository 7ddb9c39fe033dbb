import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { endMarkedProcesses, newRunMarker } from "../../src/agents/process/marked-processes.js";
import { alive } from "./process-alive.js";

// Marked `sleep 60`s: one now and one every 10 ms until stopped; `end` stops and kills whatever still runs.
function keepStarting(marker: { variable: string; value: string }) {
  const children: ChildProcess[] = [];
  const start = () =>
    children.push(
      spawn("sleep", ["60"], { stdio: "ignore", env: { ...process.env, [marker.variable]: marker.value } }),
    );
  start();
  const spawner = setInterval(start, 10);
  const stop = () => clearInterval(spawner);
  return {
    children,
    stop,
    end: () => {
      stop();
      for (const child of children) if (child.pid && alive(child.pid)) child.kill("SIGKILL");
    },
  };
}

describe.skipIf(process.platform !== "linux")("endMarkedProcesses", () => {
  it("kills a marked process that ignores SIGTERM", async () => {
    const marker = newRunMarker();
    const child = spawn("/bin/sh", ["-c", 'trap "" TERM; echo ready; exec sleep 60'], {
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, [marker.variable]: marker.value },
    });
    try {
      await once(child.stdout as NodeJS.ReadableStream, "data");
      const exited = once(child, "exit");
      await endMarkedProcesses(marker.entry, 5000);
      expect((await exited)[1]).toBe("SIGKILL");
    } finally {
      child.kill("SIGKILL");
    }
  }, 30_000);

  it("gives up after its wait when marked processes keep appearing", async () => {
    const marker = newRunMarker();
    const spawner = keepStarting(marker);
    try {
      const returned = await Promise.race([
        endMarkedProcesses(marker.entry, 300).then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 10_000)),
      ]);
      expect(returned).toBe(true);
    } finally {
      spawner.end();
    }
  }, 30_000);

  it("waits out marked processes that keep starting for a while, and ends every one", async () => {
    const marker = newRunMarker();
    const spawner = keepStarting(marker);
    const stopped = Date.now() + 400;
    setTimeout(spawner.stop, 400);
    try {
      await endMarkedProcesses(marker.entry, 10_000);
      expect(Date.now()).toBeGreaterThanOrEqual(stopped);
      const ends = await Promise.all(
        spawner.children.map((child) =>
          child.exitCode !== null || child.signalCode !== null
            ? "ended"
            : Promise.race([
                once(child, "exit").then(() => "ended"),
                new Promise((resolve) => setTimeout(() => resolve("running"), 5000)),
              ]),
        ),
      );
      expect(ends.filter((end) => end === "running")).toEqual([]);
    } finally {
      spawner.end();
    }
  }, 30_000);

  it("leaves marked processes alone off Linux, where no /proc shows other processes' environments", async () => {
    const marker = newRunMarker();
    const child = spawn("sleep", ["60"], {
      stdio: "ignore",
      env: { ...process.env, [marker.variable]: marker.value },
    });
    try {
      await once(child, "spawn");
      const started = Date.now();
      await endMarkedProcesses(marker.entry, 10_000, "darwin");
      expect(Date.now() - started).toBeLessThan(5000);
      expect(alive(child.pid as number)).toBe(true);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
