import { readFileSync, readlinkSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runDouble } from "./claude.mjs";

// The test double costs Node's start (about 0.1 CPU-s on the 2-core machine) in every one of `npm test`'s thousand
// agent runs, more than the run itself. The resident double runs the same code (claude.mjs's `runDouble`) in one
// long-lived process instead: the `claude` the adapter starts is a bash script that connects to it, names its own pid,
// and copies what comes back to its stdout (`cat`); the resident reads that process's command line, environment and
// working directory from /proc, and when the run ends leaves its exit code and stderr in files the script reads before
// it exits. Killing the script's process group closes the connection, which stops the run as killing the double would.
// Linux only (/proc, bash's /dev/tcp); elsewhere the tests start claude.mjs itself.

/** The resident double: the path of its `claude`, how many runs it is serving, and how to stop it. */
export interface ResidentDouble {
  binary: string;
  running(): number;
  close(): Promise<void>;
}

function procArgs(pid: number): string[] {
  // bash runs the script as `bash <script> <args…>`.
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(2, -1);
}

function procEnv(pid: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const entry of readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")) {
    const at = entry.indexOf("=");
    if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return env;
}

async function serve(socket: Socket, pidLine: string, dir: string): Promise<void> {
  const pid = Number(pidLine);
  const ended = new AbortController();
  socket.once("close", () => ended.abort());
  let stderr = "";
  let code = 1;
  try {
    code = await runDouble({
      argv: procArgs(pid),
      env: procEnv(pid),
      cwd: readlinkSync(`/proc/${pid}/cwd`),
      out: (text) => void socket.write(text),
      err: (text) => {
        stderr += text;
      },
      signal: ended.signal,
    });
  } catch (error) {
    stderr += `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`;
  }
  if (ended.signal.aborted) return;
  await writeFile(join(dir, `${pid}.err`), stderr);
  await writeFile(join(dir, `${pid}.code`), `${code}\n`);
  socket.end();
}

/** Starts the resident double on a local port and writes its `claude` script into a fresh temporary folder. */
export async function startResidentDouble(): Promise<ResidentDouble> {
  const dir = await mkdtemp(join(tmpdir(), "skillgym-double-"));
  const open = new Set<Socket>();
  let running = 0;
  const server = createServer((socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
    socket.on("error", () => {});
    let received = "";
    socket.setEncoding("utf8");
    const onData = (chunk: string) => {
      received += chunk;
      const end = received.indexOf("\n");
      if (end < 0) return;
      socket.off("data", onData);
      running++;
      void serve(socket, received.slice(0, end), dir)
        .catch(() => socket.destroy())
        .finally(() => running--);
    };
    socket.on("data", onData);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the resident double has no port");
  const binary = join(dir, "claude");
  await writeFile(
    binary,
    [
      "#!/bin/bash",
      "# The test double's `claude`, served by the resident double (test/agent-double/resident.ts).",
      `exec 3<>/dev/tcp/127.0.0.1/${address.port} || { echo "the resident test double is not running" >&2; exit 1; }`,
      'echo "$$" >&3',
      "cat <&3",
      `ended=${dir}/$$`,
      'read -r code < "$ended.code" || exit 1',
      'if [[ -s "$ended.err" ]]; then cat "$ended.err" >&2; fi',
      'exit "$code"',
      "",
    ].join("\n"),
  );
  await chmod(binary, 0o755);
  return {
    binary,
    running: () => running,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of open) socket.destroy();
      await closed;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
