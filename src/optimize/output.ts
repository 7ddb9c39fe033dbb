import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { OptimizeResults } from "../contracts/optimize-results.js";
import { writeJson, writeTextAtomically } from "../runlog/atomic-write.js";
import { renderOptimizeReport } from "./report-html.js";

/** `optimize-20250131-142502` (UTC), so folders sort by time. */
export function optimizeFolderName(now: Date): string {
  // toISOString ends in its milliseconds and Z.
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z/, "")
    .replace(/[-:]/g, "")
    .replace("T", "-");
  return `optimize-${stamp}`;
}

/** A new folder for this optimization; a second one started in the same second gets a suffix. */
export async function createOptimizeDir(workspace: string, now: Date): Promise<string> {
  await mkdir(workspace, { recursive: true });
  const base = optimizeFolderName(now);
  for (let n = 1; ; n++) {
    const dir = join(workspace, n === 1 ? base : `${base}-${n}`);
    try {
      await mkdir(dir);
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

/** results.json and report.html, each replaced atomically so a reader never sees half a file. */
export async function writeOptimizeOutput(dir: string, results: OptimizeResults): Promise<void> {
  await writeJson(join(dir, "results.json"), results);
  await writeTextAtomically(join(dir, "report.html"), renderOptimizeReport(results));
}
