import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
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

/**
 * For a test file of one agent command run in this process through the CLI's own `main`: a copy of
 * examples/release-notes keeping two trigger queries (the first should trigger, the last should not), and the test
 * double as the agent under --simulate. `command(...)` runs `skillgym <name> <skill> --simulate --agent-bin <double>`.
 */
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
      const code = await main([name, at.skill, "--simulate", "--agent-bin", at.binary, ...flags], io);
      return { code, stdout: io.stdout(), stderr: io.stderr() };
    },
  };
}
