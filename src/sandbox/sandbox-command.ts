import { lstat, mkdtemp, readlink, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { isFile } from "../fs-probe.js";
import { bwrapArgs, MASKED_FILES, SOCKET_MOUNT, SYSTEM_FOLDERS, type SystemEntry } from "./bwrap-args.js";
import { FORWARDER_SOURCE } from "./forwarder.js";
import { type NetworkPolicy, openNetworkGate } from "./network-gate.js";

/** Where a sandboxed run may connect: the simulator it was given, or the agent's API hosts through a proxy. */
export type SandboxNetwork = { kind: "simulator"; url: string } | { kind: "api"; hosts: readonly string[] };

/** A run's sandbox as the agent factory sets it up: the bubblewrap binary and the one network target allowed. */
export interface SandboxSpec {
  bwrap: string;
  network: SandboxNetwork;
}

export interface Command {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  home: string;
}

/** A command wrapped in its sandbox; `close` ends its network gate and says which hosts it refused. */
export interface SandboxedCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  close(): Promise<{ refusedHosts: string[] }>;
}

/** The port the inside forwarder serves as an HTTP(S) proxy when the run talks to a real API. */
export const PROXY_PORT = 3128;

const PROXY_VARIABLES = [
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "https_proxy",
  "http_proxy",
  "all_proxy",
  "no_proxy",
];

const inside = (path: string, dir: string) => {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};

async function systemEntries(): Promise<SystemEntry[]> {
  const entries: SystemEntry[] = [];
  for (const path of SYSTEM_FOLDERS) {
    try {
      const info = await lstat(path);
      if (info.isSymbolicLink()) entries.push({ path, link: await readlink(path) });
      else if (info.isDirectory()) entries.push({ path });
    } catch {}
  }
  return entries;
}

async function existing(paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) if (await isFile(path)) found.push(path);
  return found;
}

// An npm-installed agent reads its whole package (and its platform package beside it): the node_modules folder
// holding it; any other binary, its own folder.
function installFolder(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (basename(dir) === "node_modules") return dir;
  }
  return dirname(file);
}

/** The folders a command needs to read: its binary's install, a script it is given, the Node that runs the forwarder. */
async function installFolders(command: Command, system: readonly SystemEntry[]): Promise<string[]> {
  const files = [command.command, process.execPath, ...command.args.filter((a) => isAbsolute(a))];
  const folders: string[] = [];
  for (const file of files) {
    const real = await realpath(file).catch(() => undefined);
    if (!real || !(await isFile(real))) continue;
    const folder = installFolder(real);
    if (system.some((s) => s.link === undefined && inside(folder, s.path))) continue;
    if (!folders.includes(folder)) folders.push(folder);
  }
  return folders.filter((f) => !folders.some((other) => other !== f && inside(f, other)));
}

function networkOf(network: SandboxNetwork): { policy: NetworkPolicy; port: number } {
  if (network.kind === "api")
    return { policy: { kind: "connect", allowedHosts: network.hosts }, port: PROXY_PORT };
  const url = new URL(network.url);
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  return { policy: { kind: "target", host: url.hostname, port }, port };
}

function sandboxEnvironment(command: Command, network: SandboxNetwork): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...command.env };
  for (const key of PROXY_VARIABLES) delete env[key];
  if (network.kind === "api") {
    const proxy = `http://127.0.0.1:${PROXY_PORT}`;
    for (const key of ["HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"]) env[key] = proxy;
  }
  // Only the run's own folders and the private /tmp are writable inside.
  const tmp = env.TMPDIR;
  if (!tmp || !(inside(tmp, command.cwd) || inside(tmp, command.home))) env.TMPDIR = "/tmp";
  return env;
}

/** Wraps one agent command in bubblewrap, its network reduced to the spec's one target. */
export async function sandboxCommand(command: Command, spec: SandboxSpec): Promise<SandboxedCommand> {
  const socketDir = await mkdtemp(join(tmpdir(), "skillgym-net-"));
  const { policy, port } = networkOf(spec.network);
  try {
    const gate = await openNetworkGate(join(socketDir, "net.sock"), policy);
    const system = await systemEntries();
    const args = bwrapArgs({
      system,
      masked: await existing(MASKED_FILES),
      readOnly: await installFolders(command, system),
      writable: [command.cwd, command.home],
      socketDir,
      cwd: command.cwd,
    });
    const config = JSON.stringify({ port, socket: `${SOCKET_MOUNT}${sep}net.sock` });
    return {
      command: spec.bwrap,
      args: [
        ...args,
        "--",
        process.execPath,
        "-e",
        FORWARDER_SOURCE,
        "--",
        config,
        command.command,
        ...command.args,
      ],
      env: sandboxEnvironment(command, spec.network),
      async close() {
        const refusedHosts = gate.refusedHosts();
        await gate.close();
        await rm(socketDir, { recursive: true, force: true });
        return { refusedHosts };
      },
    };
  } catch (error) {
    await rm(socketDir, { recursive: true, force: true });
    throw error;
  }
}
