import { readdirSync } from "node:fs";
import { isAbsolute } from "node:path";

/**
 * The names at the top of a run's working directory, which the simulator reads itself: no agent lists its folder in
 * every request. None when the request names no directory, or it cannot be read (a client on another machine).
 */
export function topLevelEntries(cwd: string | undefined): string[] {
  if (cwd === undefined || !isAbsolute(cwd)) return [];
  try {
    return readdirSync(cwd);
  } catch {
    return [];
  }
}
