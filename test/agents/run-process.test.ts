import { getEventListeners } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ProcessSpec, runProcess } from "../../src/agents/process/run-process.js";
import { alive, waitFor } from "./process-alive.js";

const posix = process.platform !== "win32";
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-run-process-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function nodeScript(script: string, extra: Partial<ProcessSpec> = {}): ProcessSpec {
  return {
    command: process.execPath,
    args: ["-e", script],
    cwd: dir,
    env: { ...process.env },
    timeoutMs: 10_000,
    ...extra,
  };
}

/** A child that starts a grandchild (which writes its pid to `pidFile`) and then idles forever. */
function parentOfGrandchild(pidFile: string, grandchild: string, stdout: "ignore" | "inherit"): string {
  const grand = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); ${grandchild}`;
  return `require("child_process").spawn(process.execPath, ["-e", ${JSON.stringify(grand)}], { stdio: ["ignore", "${stdout}", "ignore"] }); setInterval(() => {}, 1000);`;
}

describe("runProcess", () => {
  it("delivers stdout lines in order, the last one without a newline, and the exit code", async () => {
    const lines: string[] = [];
    const result = await runProcess(
      nodeScript(
        'for (let i = 0; i < 2000; i++) process.stdout.write("line " + i + "\\n"); process.stdout.write("tail"); process.stderr.write("warned"); process.exitCode = 3;',
        {
          onLine: (line) => {
            lines.push(line);
            return undefined;
          },
        },
      ),
    );
    expect(result.exitCode).toBe(3);
    expect(result.signal).toBeNull();
    expect(result).toMatchObject({ timedOut: false, cancelled: false, stopped: false });
    expect(result.spawnError).toBeUndefined();
    expect(lines).toHaveLength(2001);
    expect(lines.slice(0, 2)).toEqual(["line 0", "line 1"]);
    expect(lines.at(-2)).toBe("line 1999");
    expect(lines.at(-1)).toBe("tail");
    expect(lines.every((l, i) => i === 2000 || l === `line ${i}`)).toBe(true);
    expect(result.stderrTail).toBe("warned");
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.durationMs).toBe(Date.parse(result.endedAt) - Date.parse(result.startedAt));
  });

  it("reports the exit code, or the signal that ended the process", async () => {
    const exited = await runProcess(nodeScript("process.exit(7)"));
    expect([exited.exitCode, exited.signal]).toEqual([7, null]);
    const killed = await runProcess(nodeScript('process.kill(process.pid, "SIGKILL")'));
    expect([killed.exitCode, killed.signal]).toEqual([null, posix ? "SIGKILL" : null]);
    if (!posix) return;
    for (const signal of ["SIGTERM", "SIGPIPE", "SIGUSR1"] as const) {
      const shell = { command: "/bin/sh", args: ["-c", `kill -s ${signal.slice(3)} $$`] };
      const ended = await runProcess({ ...nodeScript(""), ...shell });
      expect([ended.exitCode, ended.signal]).toEqual([null, signal]);
    }
  });

  it("runs in the given cwd with the given environment", async () => {
    const lines: string[] = [];
    await runProcess(
      nodeScript("console.log(process.cwd()); console.log(process.env.SKILLGYM_PROBE)", {
        env: { ...process.env, SKILLGYM_PROBE: "probe-value" },
        onLine: (line) => {
          lines.push(line);
          return undefined;
        },
      }),
    );
    expect(lines[1]).toBe("probe-value");
    expect(await realpath(lines[0] ?? "")).toBe(await realpath(dir));
  });

  it("keeps only the tail of a long stderr", async () => {
    const result = await runProcess(nodeScript('process.stderr.write("x".repeat(10000) + "END")'));
    expect(result.stderrTail.length).toBe(4000);
    expect(result.stderrTail.endsWith("xEND")).toBe(true);
  });

  it("kills a process that runs past its timeout", async () => {
    const started = Date.now();
    const result = await runProcess(
      nodeScript("setInterval(() => {}, 1000)", { timeoutMs: 300, killGraceMs: 500 }),
    );
    expect(result.timedOut).toBe(true);
    expect(result.cancelled).toBe(false);
    expect(result.exitCode === null || result.signal !== null || process.platform === "win32").toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it.skipIf(!posix)(
    "kills the process's own children on timeout",
    async () => {
      const pidFile = join(dir, "grandchild.pid");
      const result = await runProcess(
        // Long enough for two Node starts on a busy machine, so the grandchild is there when the limit strikes.
        nodeScript(parentOfGrandchild(pidFile, "setInterval(() => {}, 1000);", "ignore"), {
          timeoutMs: 4000,
          killGraceMs: 300,
        }),
      );
      expect(result.timedOut).toBe(true);
      expect(existsSync(pidFile)).toBe(true);
      const pid = Number(await readFile(pidFile, "utf8"));
      expect(pid).toBeGreaterThan(0);
      const gone = await waitFor(() => !alive(pid), 5000);
      if (!gone) process.kill(pid, "SIGKILL");
      expect(gone).toBe(true);
    },
    20_000,
  );

  // The grace SIGKILL must reach the process group even after the direct child died of the SIGTERM.
  it.skipIf(!posix)(
    "kills a grandchild that ignores SIGTERM and holds stdout open",
    async () => {
      const pidFile = join(dir, "stubborn.pid");
      const run = runProcess(
        nodeScript(
          parentOfGrandchild(
            pidFile,
            'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000);',
            "inherit",
          ),
          {
            timeoutMs: 4000,
            killGraceMs: 300,
          },
        ),
      );
      const finished = await Promise.race([
        run.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 8000)),
      ]);
      const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : 0;
      const gone = pid > 0 && (await waitFor(() => !alive(pid), 5000));
      if (pid > 0 && !gone) process.kill(pid, "SIGKILL");
      await run;
      expect(pid).toBeGreaterThan(0);
      expect(finished).toBe(true);
      expect(gone).toBe(true);
    },
    20_000,
  );

  it("ends the process when onLine returns stop, and delivers no line after", async () => {
    const lines: string[] = [];
    const result = await runProcess(
      nodeScript("let i = 0; setInterval(() => console.log('line ' + i++), 10)", {
        onLine: (line) => {
          lines.push(line);
          return line === "line 3" ? "stop" : undefined;
        },
      }),
    );
    expect(result.stopped).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(result.cancelled).toBe(false);
    expect(lines).toEqual(["line 0", "line 1", "line 2", "line 3"]);
  });

  it("cancels on an AbortSignal", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const result = await runProcess(nodeScript("setInterval(() => {}, 1000)", { signal: controller.signal }));
    expect(result.cancelled).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("cancels at once when the signal was already aborted", async () => {
    const result = await runProcess(
      nodeScript("setInterval(() => {}, 1000)", { signal: AbortSignal.abort() }),
    );
    expect(result.cancelled).toBe(true);
  });

  it("reports a command that does not exist as a spawn error", async () => {
    const result = await runProcess({
      command: join(dir, "no-such-command"),
      args: [],
      cwd: dir,
      env: { ...process.env },
      timeoutMs: 5000,
    });
    expect(result.spawnError).toMatch(/ENOENT/);
    expect(result.exitCode).toBeNull();
    expect(result.timedOut).toBe(false);
  });
  it("delivers empty lines, and no empty line after the last newline", async () => {
    const lines: string[] = [];
    await runProcess(
      nodeScript('process.stdout.write("first\\n\\nthird\\n")', {
        onLine: (line) => {
          lines.push(line);
          return undefined;
        },
      }),
    );
    expect(lines).toEqual(["first", "", "third"]);
  });

  it.skipIf(!posix)(
    "hands the child its stdin text and closes it; without text, stdin is closed at once",
    async () => {
      const lines: string[] = [];
      const cat = { ...nodeScript(""), command: "cat", args: [], timeoutMs: 5000 };
      const fed = await runProcess({
        ...cat,
        stdin: "a\nb\n",
        onLine: (line) => {
          lines.push(line);
          return undefined;
        },
      });
      expect(lines).toEqual(["a", "b"]);
      expect(fed).toMatchObject({ exitCode: 0, timedOut: false });
      // cat reads until its input ends: an open stdin would keep it running to the timeout.
      expect(await runProcess(cat)).toMatchObject({ exitCode: 0, timedOut: false });
    },
  );

  it.skipIf(!posix)(
    "runs on when the child exits without reading its stdin text or its attached stdin",
    async () => {
      const quits = { ...nodeScript(""), command: "/bin/sh", args: ["-c", "exit 0"] };
      const big = "x".repeat(1 << 20);
      expect((await runProcess({ ...quits, stdin: big })).exitCode).toBe(0);
      const attached = await runProcess({ ...quits, attach: (io) => void io.stdin.write(big) });
      expect(attached.exitCode).toBe(0);
    },
  );

  it("leaves an attached child's stdout to the attached reader: no line goes to onLine", async () => {
    const lines: string[] = [];
    let read = "";
    const result = await runProcess(
      nodeScript('process.stdout.write("hello\\nworld\\n")', {
        onLine: (line) => {
          lines.push(line);
          return undefined;
        },
        attach: (io) => {
          io.stdout.setEncoding("utf8");
          io.stdout.on("data", (chunk: string) => {
            read += chunk;
          });
        },
      }),
    );
    expect(result.exitCode).toBe(0);
    expect(read).toBe("hello\nworld\n");
    expect(lines).toEqual([]);
  });

  it.skipIf(!posix)("gives a child 2 s after SIGTERM by default to end by itself", async () => {
    const result = await runProcess(
      nodeScript(
        'process.on("SIGTERM", () => setTimeout(() => process.exit(7), 50)); console.log("ready"); setInterval(() => {}, 1000);',
        { onLine: (line) => (line === "ready" ? "stop" : undefined) },
      ),
    );
    expect(result).toMatchObject({ stopped: true, exitCode: 7, signal: null });
  });

  it.skipIf(!posix)("asks the child to stop once when the run is ended twice", async () => {
    let asked = 0;
    const result = await runProcess({
      ...nodeScript(""),
      command: "sleep",
      args: ["15"],
      attach: (_io, end) => {
        end("stop");
        end("done");
      },
      beforeKill: async () => {
        asked++;
      },
    });
    expect(asked).toBe(1);
    expect(result).toMatchObject({ stopped: true, signal: "SIGTERM" });
  });

  it.skipIf(!posix)(
    "signals the child after the grace period when asking it to stop never settles",
    async () => {
      const result = await runProcess({
        ...nodeScript(""),
        command: "sleep",
        args: ["15"],
        killGraceMs: 200,
        attach: (_io, end) => end("done"),
        beforeKill: () => new Promise<void>(() => {}),
      });
      expect(result.signal).toBe("SIGTERM");
    },
  );

  it.skipIf(!posix)(
    "ends the child when skillgym exits, and leaves no exit listener once the run ended",
    async () => {
      const before = process.listeners("exit");
      const run = runProcess({ ...nodeScript(""), command: "sleep", args: ["15"] });
      const added = process.listeners("exit").filter((listener) => !before.includes(listener));
      expect(added).toHaveLength(1);
      // What Node does when skillgym exits.
      added[0]?.call(process, 0);
      expect((await run).signal).toBe("SIGKILL");
      expect(process.listeners("exit")).toEqual(before);
    },
  );

  it("leaves no listener on its AbortSignal and no timer once the process ended", async () => {
    const controller = new AbortController();
    // Timers faked only to count them: a run's timeout left behind would keep skillgym waiting for it.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const result = await runProcess(nodeScript("", { signal: controller.signal, timeoutMs: 600_000 }));
      expect(result.exitCode).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
