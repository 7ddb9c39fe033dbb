import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";

export const root = resolve(import.meta.dirname, "../..");
export const bin = join(root, "bin", "skillgym.js");

/** The built CLI as a user runs it, stdout and stderr apart. */
export function skillgym(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    env,
    encoding: "utf8",
    // A limit for a hung command, not a speed test: a loaded 2-core machine takes minutes over a run of several agents.
    timeout: 420_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

// Arguments for `sh -c` and `script -c`; the test's own paths hold no quote.
export const shellLine = (args: string[]) => args.map((a) => `'${a}'`).join(" ");
