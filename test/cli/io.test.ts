import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { captureIo, createIo } from "../../src/cli/io.js";

const BEGIN = "\u001b[?2026h";
const END = "\u001b[?2026l";
const ERASE_LINE = "\u001b[2K\u001b[1A\u001b[2K\u001b[G";

// What the process's stdout and stderr are given while a test runs, in order, each write made readable: the
// terminal's synchronised-output brackets dropped and the erasing of the status's line shown as `<erase>`.
let written: string[];
let stderrIsTTY: boolean | undefined;
let stdoutIsTTY: boolean | undefined;
let errorListeners: ((...args: unknown[]) => void)[];

function record(stream: "stdout" | "stderr") {
  return (chunk: string | Uint8Array) => {
    const text = String(chunk).replaceAll(BEGIN, "").replaceAll(END, "").replaceAll(ERASE_LINE, "<erase>");
    written.push(`${stream}: ${text}`);
    return true;
  };
}

function setTTY(stream: NodeJS.WriteStream, value: boolean) {
  Object.defineProperty(stream, "isTTY", { value, configurable: true, writable: true });
}

beforeEach(() => {
  written = [];
  stderrIsTTY = process.stderr.isTTY;
  stdoutIsTTY = process.stdout.isTTY;
  errorListeners = process.stdout.listeners("error") as typeof errorListeners;
  vi.spyOn(process.stdout, "write").mockImplementation(record("stdout"));
  vi.spyOn(process.stderr, "write").mockImplementation(record("stderr"));
});

afterEach(() => {
  vi.restoreAllMocks();
  setTTY(process.stderr, stderrIsTTY as boolean);
  setTTY(process.stdout, stdoutIsTTY as boolean);
  for (const listener of process.stdout.listeners("error"))
    if (!errorListeners.includes(listener as (typeof errorListeners)[number]))
      process.stdout.off("error", listener as (...args: unknown[]) => void);
});

describe("createIo", () => {
  it("writes straight through and shows no status when stderr is not a terminal", () => {
    setTTY(process.stderr, false);
    setTTY(process.stdout, true);
    const io = createIo();
    expect(io.liveStatus).toBe(false);
    expect(io.isTTY).toBe(true);
    io.status(() => "status");
    io.out("to stdout");
    io.err("to stderr\n");
    io.status(undefined);
    expect(written).toEqual(["stdout: to stdout", "stderr: to stderr\n"]);
  });

  it("says whether stdout is a terminal", () => {
    setTTY(process.stderr, false);
    setTTY(process.stdout, false);
    expect(createIo().isTTY).toBe(false);
  });

  it("keeps the highest exit code it was given, 0 until then", () => {
    setTTY(process.stderr, false);
    const io = createIo();
    expect(io.exitCode()).toBe(0);
    io.setExitCode(2);
    io.setExitCode(1);
    expect(io.exitCode()).toBe(2);
    io.setExitCode(3);
    expect(io.exitCode()).toBe(3);
  });

  it("draws the status on a terminal's stderr, below what stdout and stderr are given", () => {
    setTTY(process.stderr, true);
    const io = createIo();
    expect(io.liveStatus).toBe(true);
    let n = 0;
    io.status(() => `status ${++n}`);
    io.err("a warning\n");
    io.out("half a ");
    io.out("line\n");
    io.err("no line end");
    io.status(undefined);
    io.err("after\n");
    expect(written).toEqual([
      "stderr: status 1\n",
      "stderr: <erase>",
      "stderr: a warning\n",
      "stderr: status 2\n",
      "stderr: <erase>",
      "stdout: half a ",
      "stdout: line\n",
      "stderr: status 3\n",
      "stderr: <erase>",
      "stderr: no line end",
      "stderr: after\n",
    ]);
  });

  it("drops what stdout is given once its reader has gone, and goes on writing to stderr", () => {
    setTTY(process.stderr, false);
    const io = createIo();
    io.out("before\n");
    process.stdout.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    io.out("after\n");
    io.err("still here\n");
    expect(written).toEqual(["stdout: before\n", "stderr: still here\n"]);
  });

  it("drops stdout's output under a live status too", () => {
    setTTY(process.stderr, true);
    const io = createIo();
    process.stdout.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    io.status(() => "status");
    io.out("dropped\n");
    io.status(undefined);
    expect(written).toEqual(["stderr: status\n", "stderr: <erase>"]);
  });

  it("throws any other error of stdout", () => {
    setTTY(process.stderr, false);
    const io = createIo();
    const others = process.stdout.listeners("error").filter((l) => !errorListeners.includes(l as never));
    expect(others).toHaveLength(1);
    const failure = Object.assign(new Error("write EIO"), { code: "EIO" });
    expect(() => (others[0] as (error: Error) => void)(failure)).toThrow(failure);
    io.out("kept\n");
    expect(written).toEqual(["stdout: kept\n"]);
  });
});

describe("captureIo", () => {
  it("keeps stdout and stderr apart and the highest exit code", () => {
    const io = captureIo();
    io.out("a");
    io.err("b");
    io.out("c");
    io.setExitCode(4);
    io.setExitCode(1);
    io.status(() => "ignored");
    expect({
      stdout: io.stdout(),
      stderr: io.stderr(),
      code: io.exitCode(),
      isTTY: io.isTTY,
      live: io.liveStatus,
    }).toEqual({ stdout: "ac", stderr: "b", code: 4, isTTY: false, live: false });
    expect(written).toEqual([]);
  });
});
