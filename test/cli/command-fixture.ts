import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { executableDouble } from "../agent-double/index.js";
import { tempDir } from "../e2e/helpers.js";
import { smallExample } from "../e2e/small-example.js";

/** What a command printed and its exit code. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `skillgym <args>` in this process through the CLI's own `main`: its exit code and what it printed. */
export async function cli(args: string[]): Promise<CommandResult> {
  const io = captureIo();
  const code = await main(args, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

/**
 * For a test file of one agent command run in this process through the CLI's own `main`: a copy of
 * examples/release-notes keeping two trigger queries (the first should trigger, the last should not), and the test
 * double as the agent under --simulate. `command(...)` runs `skillgym <name> <skill> --simulate --agent-bin <double>`.
 */
/** The flags naming a path that run, eval and triggers refuse when it is not there, and what they say (NOWHERE: the path). */
export const MISSING_PATH_REFUSALS = [
  ["--context", "skillgym: --context: NOWHERE cannot be read\n"],
  ["--installed", "skillgym: --installed: NOWHERE does not exist\n"],
  ["--with-skills", "skillgym: --with-skills: NOWHERE is not a valid skill:\n"],
  ["--project-root", "skillgym: Project root not found: NOWHERE\n"],
] as const;

export function useReleaseNotes(name: string) {
  const at = { dir: "", skill: "", binary: "" };
  let cleanup: () => Promise<void> = async () => {};
  beforeAll(async () => {
    let dir: string;
    ({ dir, cleanup } = await tempDir());
    at.dir = dir;
    at.skill = await smallExample(dir, "release-notes", [0, 19]);
    at.binary = await executableDouble(dir);
  });
  afterAll(() => cleanup());
  return {
    at,
    workspace: (folder: string) => join(at.dir, folder),
    async command(...flags: string[]): Promise<CommandResult> {
      const io = captureIo();
      const servers = openServers();
      const code = await main([name, at.skill, "--simulate", "--agent-bin", at.binary, ...flags], io);
      // The simulator the command started is closed when it returns: left open, the process would never exit.
      expect(await serversAfterClosing(servers), `skillgym ${name} left a server open`).toBe(servers);
      return { code, stdout: io.stdout(), stderr: io.stderr() };
    },
  };
}

/** How many listening servers this process has open. */
export function openServers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === "TCPServerWrap").length;
}

// The open servers once those closing have gone (a closed server's handle goes a moment after its close returns),
// waiting at most two seconds for them to come down to `expected`.
async function serversAfterClosing(expected: number): Promise<number> {
  for (let waited = 0; openServers() > expected && waited < 2000; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return openServers();
}
