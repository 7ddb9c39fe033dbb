import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, join } from "node:path";

// Finding a program: on PATH, or among given candidates, runnable by this process.

/** A regular file this process may run (on Windows: one that exists), at least `minBytes` long. */
export async function isRunnable(path: string, minBytes = 0, mode = constants.X_OK): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size < minBytes) return false;
    await access(path, process.platform === "win32" ? constants.F_OK : mode);
    return true;
  } catch {
    return false;
  }
}

/** Where a command of this name would be on PATH: `<name>` on POSIX, `<name>.exe` / `<name>.cmd` on Windows. */
export function pathCandidates(name: string, env: NodeJS.ProcessEnv): string[] {
  const names = process.platform === "win32" ? [`${name}.exe`, `${name}.cmd`] : [name];
  return (env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .flatMap((dir) => names.map((file) => join(dir, file)));
}

/** The first candidate that is runnable. */
export async function firstRunnable(candidates: string[], minBytes = 0): Promise<string | undefined> {
  for (const candidate of candidates) if (await isRunnable(candidate, minBytes)) return candidate;
  return undefined;
}
