import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { ownedTempPrefix } from "../owned-temp.js";
import { bwrapArgs, SOCKET_MOUNT } from "./bwrap-args.js";
import { FORWARDER_SOURCE } from "./forwarder.js";
import { inside, installFolders, maskedPaths, systemEntries } from "./layout.js";
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
  /** The working folder is only read (a judge's view of the run's folder): bound read-only, the home alone writable. */
  readOnlyCwd?: boolean;
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
  const writable = command.readOnlyCwd ? [command.home] : [command.cwd, command.home];
  if (!tmp || !writable.some((dir) => inside(tmp, dir))) env.TMPDIR = "/tmp";
  return env;
}

/** Wraps one agent command in bubblewrap, its network reduced to the spec's one target. */
export async function sandboxCommand(command: Command, spec: SandboxSpec): Promise<SandboxedCommand> {
  // Named after its owner, so a later skillgym sweeps it when this one was killed before `close`.
  const socketDir = await mkdtemp(join(tmpdir(), ownedTempPrefix("net")));
  const { policy, port } = networkOf(spec.network);
  try {
    const gate = await openNetworkGate(join(socketDir, "net.sock"), policy);
    const system = await systemEntries();
    const readOnlyCwd = command.readOnlyCwd === true && !inside(command.cwd, command.home);
    const args = bwrapArgs({
      system,
      ...(await maskedPaths()),
      readOnly: [...(await installFolders(command, system)), ...(readOnlyCwd ? [command.cwd] : [])],
      writable: readOnlyCwd ? [command.home] : [command.cwd, command.home],
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
        // Stryker disable next-line BooleanLiteral: equivalent, the folder was made above and only this removes it
        await rm(socketDir, { recursive: true, force: true });
        return { refusedHosts };
      },
    };
  } catch (error) {
    // Stryker disable next-line BooleanLiteral: equivalent, the folder was made above and only this removes it
    await rm(socketDir, { recursive: true, force: true });
    throw error;
  }
}
