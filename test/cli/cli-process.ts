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
    timeout: 180_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

// Arguments for `sh -c` and `script -c`; the test's own paths hold no quote.
export const shellLine = (args: string[]) => args.map((a) => `'${a}'`).join(" ");
