import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownedTempPrefix } from "../../src/owned-temp.js";
import { FORWARDER_SOURCE } from "../../src/sandbox/forwarder.js";
import { PROXY_PORT, type SandboxedCommand, SOCKET_MOUNT, sandboxCommand } from "../../src/sandbox/index.js";
import { tempDir } from "../e2e/helpers.js";

// No bubblewrap is started here: these tests read the command built and talk to its network gate directly.
let dir: string;
let cleanup: () => Promise<void>;
let target: Server;
let targetPort: number;
let work: string;
let home: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  work = join(dir, "work");
  home = join(dir, "home");
  await mkdir(work);
  await mkdir(home);
  // A stand-in for the simulator: it answers with what it got, prefixed.
  target = createServer((socket) => socket.on("data", (chunk) => socket.write(`echo: ${chunk}`)));
  await new Promise<void>((done) => target.listen(0, "127.0.0.1", done));
  const address = target.address();
  targetPort = typeof address === "object" && address ? address.port : 0;
});
afterAll(async () => {
  await new Promise<void>((done) => target.close(() => done()));
  await cleanup();
});

const simulator = () => ({ kind: "simulator" as const, url: `http://127.0.0.1:${targetPort}` });

function command(env: NodeJS.ProcessEnv = {}, readOnlyCwd?: boolean) {
  return {
    command: "/bin/agent",
    args: ["-p", "hello world"],
    env,
    cwd: work,
    home,
    ...(readOnlyCwd === undefined ? {} : { readOnlyCwd }),
  };
}

// What follows bwrap's own arguments: the forwarder started by the Node skillgym runs on, then the agent.
function afterMounts(wrapped: SandboxedCommand) {
  const end = wrapped.args.indexOf("--");
  return { mounts: wrapped.args.slice(0, end), rest: wrapped.args.slice(end + 1) };
}

function triples(args: string[], flag: string): string[][] {
  const found: string[][] = [];
  args.forEach((arg, i) => {
    if (arg === flag) found.push([arg, args[i + 1] ?? "", args[i + 2] ?? ""]);
  });
  return found;
}

function socketDirOf(wrapped: SandboxedCommand): string {
  const bind = triples(afterMounts(wrapped).mounts, "--bind").find((m) => m[2] === SOCKET_MOUNT);
  return bind?.[1] ?? "";
}

async function withSandbox<T>(
  wrapped: Promise<SandboxedCommand>,
  use: (w: SandboxedCommand) => Promise<T> | T,
): Promise<T> {
  const w = await wrapped;
  try {
    return await use(w);
  } finally {
    await w.close();
  }
}

function send(socketPath: string, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath, () => socket.write(bytes));
    let got = "";
    socket.on("data", (chunk) => {
      got += chunk.toString("latin1");
      if (got.includes("echo:")) socket.end();
    });
    socket.on("close", () => resolve(got));
    socket.on("error", reject);
  });
}

describe("an agent's sandboxed command", () => {
  it("starts bwrap, then the forwarder on the Node skillgym runs on, then the agent with its arguments", async () => {
    await withSandbox(sandboxCommand(command(), { bwrap: "/usr/bin/bwrap", network: simulator() }), (w) => {
      expect(w.command).toBe("/usr/bin/bwrap");
      expect(w.args.slice(0, 2)).toEqual(["--unshare-all", "--die-with-parent"]);
      const { mounts, rest } = afterMounts(w);
      expect(mounts.slice(-2)).toEqual(["--chdir", work]);
      expect(rest).toEqual([
        process.execPath,
        "-e",
        FORWARDER_SOURCE,
        "--",
        JSON.stringify({ port: targetPort, socket: `${SOCKET_MOUNT}/net.sock` }),
        "/bin/agent",
        "-p",
        "hello world",
      ]);
    });
  });

  it("forwards to the simulator's port, 80 or 443 when its address names none", async () => {
    for (const [url, port] of [
      ["http://127.0.0.1/", 80],
      ["https://127.0.0.1/", 443],
      ["https://127.0.0.1:8443/", 8443],
    ] as const) {
      const config = await withSandbox(
        sandboxCommand(command(), { bwrap: "bwrap", network: { kind: "simulator", url } }),
        (w) => JSON.parse(afterMounts(w).rest[4] ?? "{}"),
      );
      expect(config, url).toEqual({ port, socket: `${SOCKET_MOUNT}/net.sock` });
    }
  });

  it("writes the workspace and the home at their own paths, and binds the socket folder", async () => {
    await withSandbox(sandboxCommand(command(), { bwrap: "bwrap", network: simulator() }), (w) => {
      const { mounts } = afterMounts(w);
      const socketDir = socketDirOf(w);
      expect(triples(mounts, "--bind")).toEqual([
        ["--bind", work, work],
        ["--bind", home, home],
        ["--bind", socketDir, SOCKET_MOUNT],
      ]);
      expect(triples(mounts, "--ro-bind").map((m) => m[2])).not.toContain(work);
      // What it reads is bound from absolute paths only: the agent's install, the Node skillgym runs on.
      for (const [, from] of triples(mounts, "--ro-bind")) expect(from?.startsWith("/"), from).toBe(true);
      expect(mounts).toContain("/etc/shadow");
    });
  });

  it("binds a judge's working folder read-only, its home alone writable", async () => {
    await withSandbox(sandboxCommand(command({}, true), { bwrap: "bwrap", network: simulator() }), (w) => {
      const { mounts } = afterMounts(w);
      expect(triples(mounts, "--bind").map((m) => m[1])).toEqual([home, socketDirOf(w)]);
      expect(triples(mounts, "--ro-bind")).toContainEqual(["--ro-bind", work, work]);
    });
    await withSandbox(sandboxCommand(command({}, false), { bwrap: "bwrap", network: simulator() }), (w) => {
      expect(triples(afterMounts(w).mounts, "--bind").map((m) => m[1])).toEqual([work, home, socketDirOf(w)]);
    });
  });

  it("keeps a read-only working folder writable when it lies in the home", async () => {
    const cwd = join(home, "project");
    await mkdir(cwd, { recursive: true });
    await withSandbox(
      sandboxCommand({ ...command({}, true), cwd }, { bwrap: "bwrap", network: simulator() }),
      (w) => {
        const { mounts } = afterMounts(w);
        expect(triples(mounts, "--bind").map((m) => m[1])).toEqual([cwd, home, socketDirOf(w)]);
        expect(triples(mounts, "--ro-bind").map((m) => m[2])).not.toContain(cwd);
      },
    );
  });
});

describe("an agent's sandboxed environment", () => {
  const proxies = {
    HTTPS_PROXY: "http://corp:1",
    HTTP_PROXY: "http://corp:2",
    ALL_PROXY: "socks://corp:3",
    NO_PROXY: "localhost",
    https_proxy: "http://corp:4",
    http_proxy: "http://corp:5",
    all_proxy: "socks://corp:6",
    no_proxy: "localhost",
  };

  it("drops the host's proxies for a simulator run and keeps the rest", async () => {
    const env = await withSandbox(
      sandboxCommand(command({ ...proxies, PATH: "/usr/bin", TMPDIR: join(work, "tmp") }), {
        bwrap: "bwrap",
        network: simulator(),
      }),
      (w) => w.env,
    );
    expect(env).toEqual({ PATH: "/usr/bin", TMPDIR: join(work, "tmp") });
  });

  it("sends an API run through the inside proxy, and only that", async () => {
    const env = await withSandbox(
      sandboxCommand(command({ ...proxies, PATH: "/usr/bin" }), {
        bwrap: "bwrap",
        network: { kind: "api", hosts: ["api.anthropic.com"] },
      }),
      (w) => {
        expect(JSON.parse(afterMounts(w).rest[4] ?? "{}")).toEqual({
          port: PROXY_PORT,
          socket: `${SOCKET_MOUNT}/net.sock`,
        });
        return w.env;
      },
    );
    const proxy = "http://127.0.0.1:3128";
    expect(PROXY_PORT).toBe(3128);
    expect(env).toEqual({
      PATH: "/usr/bin",
      HTTPS_PROXY: proxy,
      HTTP_PROXY: proxy,
      https_proxy: proxy,
      http_proxy: proxy,
      TMPDIR: "/tmp",
    });
  });

  it("keeps TMPDIR only where the run may write, else the private /tmp", async () => {
    const tmpdirOf = async (TMPDIR: string | undefined, readOnlyCwd?: boolean) =>
      withSandbox(
        sandboxCommand(command(TMPDIR === undefined ? {} : { TMPDIR }, readOnlyCwd), {
          bwrap: "bwrap",
          network: simulator(),
        }),
        (w) => w.env.TMPDIR,
      );
    expect(await tmpdirOf(join(work, "t"))).toBe(join(work, "t"));
    expect(await tmpdirOf(join(home, "t"))).toBe(join(home, "t"));
    expect(await tmpdirOf(join(home, "t"), true)).toBe(join(home, "t"));
    expect(await tmpdirOf(join(work, "t"), true)).toBe("/tmp");
    expect(await tmpdirOf("/var/tmp")).toBe("/tmp");
    expect(await tmpdirOf(undefined)).toBe("/tmp");
    expect(await tmpdirOf("")).toBe("/tmp");
  });
});

describe("an agent's sandboxed network", () => {
  it("carries a simulator run's connection to the simulator, and removes its socket folder on close", async () => {
    const wrapped = await sandboxCommand(command(), { bwrap: "bwrap", network: simulator() });
    const socketDir = socketDirOf(wrapped);
    expect(socketDir.startsWith(join(tmpdir(), ownedTempPrefix("net")))).toBe(true);
    expect(await readdir(socketDir)).toEqual(["net.sock"]);
    expect(await send(join(socketDir, "net.sock"), "ping")).toBe("echo: ping");
    expect(await wrapped.close()).toEqual({ refusedHosts: [] });
    await expect(stat(socketDir)).rejects.toThrow();
  });

  it("tunnels an API run's CONNECT to an allowed host and reports the hosts it refused on close", async () => {
    const wrapped = await sandboxCommand(command(), {
      bwrap: "bwrap",
      network: { kind: "api", hosts: ["127.0.0.1"] },
    });
    const socketPath = join(socketDirOf(wrapped), "net.sock");
    const tunnelled = await send(socketPath, `CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\n\r\nping`);
    expect(tunnelled).toBe("HTTP/1.1 200 Connection Established\r\n\r\necho: ping");
    expect(await send(socketPath, "CONNECT evil.example:443 HTTP/1.1\r\n\r\n")).toMatch(/^HTTP\/1\.1 403 /);
    expect(await wrapped.close()).toEqual({ refusedHosts: ["evil.example"] });
  });

  it("removes its socket folder when the gate cannot listen", async () => {
    // A socket path past the system's limit (108 bytes on Linux): refused outright, or cut short onto a file there.
    const parent = join(dir, "t".repeat(120));
    await mkdir(parent);
    await writeFile(join(dir, "t".repeat(108 - dir.length - 1)), "taken");
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = parent;
    try {
      await expect(sandboxCommand(command(), { bwrap: "bwrap", network: simulator() })).rejects.toThrow();
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(await readdir(parent)).toEqual([]);
  });
});
