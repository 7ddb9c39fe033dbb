import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { killTree } from "./kill-tree.js";
import { endMarkedProcesses, newRunMarker } from "./marked-processes.js";
import { guardGroup, releaseGroup } from "./watchdog.js";

export interface ProcessSpec {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called for every stdout line; returning "stop" ends the process tree at once. */
  onLine?: (line: string) => "stop" | undefined;
  /** Grace period between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** Text written to the child's stdin, which is then closed; none: stdin is closed from the start. */
  stdin?: string;
  /**
   * A child spoken to over its stdin and stdout (a protocol such as ACP), instead of `stdin` and `onLine`: called once
   * it started, with its pipes and a way to end it ("stop": the caller stopped the run; "done": its work is over).
   */
  attach?: (io: ChildPipes, end: (reason: "stop" | "done") => void) => void;
  /** Awaited before the tree is signalled (at most `killGraceMs`): a chance to ask the child to stop by itself. */
  beforeKill?: () => Promise<void>;
}

export interface ChildPipes {
  stdin: Writable;
  stdout: Readable;
}

/** One result shape for success and failure alike. */
export interface ProcessResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  stopped: boolean;
  spawnError?: string;
  durationMs: number;
  startedAt: string;
  endedAt: string;
  stderrTail: string;
}

const STDERR_TAIL = 4000;

export function runProcess(spec: ProcessSpec): Promise<ProcessResult> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  return new Promise((resolve) => {
    let timedOut = false;
    let cancelled = false;
    let stopped = false;
    let spawnError: string | undefined;
    let stderr = "";
    let pending = "";

    // Agents start commands in sessions of their own, out of the process group ended below; a marker finds them.
    const marker = newRunMarker();
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...spec.env, [marker.variable]: marker.value },
      stdio: [spec.stdin === undefined && !spec.attach ? "ignore" : "pipe", "pipe", "pipe"],
      detached: process.platform !== "win32",
      // Stryker disable next-line BooleanLiteral: Windows only, no other system opens a console window to hide
      windowsHide: true,
    });
    // A watchdog process, not prctl(PR_SET_PDEATHSIG): it works on Linux, macOS and Windows without a native helper,
    // and ends the agent's process group even when skillgym is killed with SIGKILL and cannot clean up.
    // Accepted race: skillgym killed between this spawn and the watchdog's `add` leaves this one agent unguarded.
    const pid = child.pid;
    if (pid !== undefined) guardGroup(pid);
    if (spec.stdin !== undefined) {
      // A child that exits without reading its input must not fail the run with EPIPE.
      child.stdin?.on("error", () => {});
      child.stdin?.end(spec.stdin);
    }

    const grace = spec.killGraceMs ?? 2000;
    let ending = false;
    const kill = () => {
      killTree(child, "SIGTERM");
      setTimeout(() => killTree(child, "SIGKILL"), grace).unref();
    };
    const end = (reason: "timeout" | "cancel" | "stop" | "done") => {
      if (reason === "timeout") timedOut = true;
      else if (reason === "cancel") cancelled = true;
      else if (reason === "stop") stopped = true;
      if (!spec.beforeKill) return kill();
      if (ending) return;
      ending = true;
      // The child may end by itself once asked; the tree is signalled all the same after the grace period.
      const cap = new Promise<void>((resolve) => setTimeout(resolve, grace).unref());
      void Promise.race([spec.beforeKill().catch(() => {}), cap]).then(kill);
    };
    const timer = setTimeout(() => end("timeout"), spec.timeoutMs);
    const onAbort = () => end("cancel");
    if (spec.signal?.aborted) onAbort();
    // An AbortSignal aborts once; finish removes the listener.
    spec.signal?.addEventListener("abort", onAbort);
    const onExit = () => killTree(child, "SIGKILL");
    process.once("exit", onExit);

    const handleLine = (line: string) => {
      if (stopped || !spec.onLine) return;
      if (spec.onLine(line) === "stop") end("stop");
    };
    if (spec.attach && child.stdin && child.stdout) {
      child.stdin.on("error", () => {});
      spec.attach({ stdin: child.stdin, stdout: child.stdout }, end);
    } else child.stdout?.setEncoding("utf8");
    if (!spec.attach)
      child.stdout?.on("data", (chunk: string) => {
        pending += chunk;
        let at = pending.indexOf("\n");
        while (at >= 0) {
          handleLine(pending.slice(0, at));
          pending = pending.slice(at + 1);
          at = pending.indexOf("\n");
        }
      });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });

    const finish = (exitCode: number | null, signal: string | null) => {
      // Background processes the agent started die with its run.
      killTree(child, "SIGKILL");
      if (pid !== undefined) releaseGroup(pid);
      if (pending) handleLine(pending);
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onAbort);
      process.removeListener("exit", onExit);
      const ended = Date.now();
      const result: ProcessResult = {
        exitCode,
        signal,
        timedOut,
        cancelled,
        stopped,
        ...(spawnError ? { spawnError } : {}),
        durationMs: ended - started,
        startedAt,
        endedAt: new Date(ended).toISOString(),
        stderrTail: stderr,
      };
      void endMarkedProcesses(marker.entry).then(() => resolve(result));
    };
    // The first of 'error' (it did not start) and 'close' ends the run.
    const closed = new Promise<[number | null, string | null]>((done) => {
      child.on("error", (error) => {
        spawnError = error.message;
        done([null, null]);
      });
      child.on("close", (code, signal) => done([code, signal]));
    });
    void closed.then(([exitCode, signal]) => finish(exitCode, signal));
  });
}
