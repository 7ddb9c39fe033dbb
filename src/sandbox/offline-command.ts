import { bwrapArgs } from "./bwrap-args.js";
import { installFolders, maskedPaths, systemEntries } from "./layout.js";

/** A command run in a finished workspace (a `command` check): it sees that workspace and nothing else of the user's. */
export interface OfflineCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** The workspace: the command's working folder, the only folder of the host it may write. */
  cwd: string;
}

/** The empty home a sandboxed check gets, in its private /tmp. */
export const CHECK_HOME = "/tmp/home";

/**
 * Wraps a command in bubblewrap with no network at all (no forwarder, no gate: only the sandbox's own loopback), its
 * workspace writable, an empty private home and /tmp, the system read-only as for an agent.
 */
export async function sandboxOfflineCommand(
  command: OfflineCommand,
  bwrap: string,
): Promise<{ command: string; args: string[]; env: NodeJS.ProcessEnv }> {
  const system = await systemEntries();
  const args = bwrapArgs({
    system,
    ...(await maskedPaths()),
    made: [CHECK_HOME],
    // The shell and the Node skillgym runs on (for `npm test`); never a path named in the command's own text.
    // Stryker disable next-line ArrayDeclaration: equivalent, installFolders reads only absolute arguments
    readOnly: await installFolders({ command: command.command, args: [] }, system),
    writable: [command.cwd],
    cwd: command.cwd,
  });
  return {
    command: bwrap,
    args: [...args, "--", command.command, ...command.args],
    env: { ...command.env, HOME: CHECK_HOME, TMPDIR: "/tmp" },
  };
}
