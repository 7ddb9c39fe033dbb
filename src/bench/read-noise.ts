import { dirname, join, resolve } from "node:path";
import { NoiseReport } from "../contracts/noise.js";
import { readRecordIfValid } from "../runlog/read-record.js";

export const NOISE_FILE = "noise.json";

/**
 * The A/A spread `skillgym noise` recorded for the workspace an iteration is in (its folder's parent, or for one
 * agent's folder of a run of several, the workspace above the iteration); undefined when none was measured.
 */
export async function noiseSpreadFor(iterationDir: string): Promise<number | undefined> {
  const parent = dirname(resolve(iterationDir));
  for (const dir of [parent, dirname(parent)]) {
    const report = await readRecordIfValid(join(dir, NOISE_FILE), NoiseReport);
    if (report) return report.spread;
  }
  return undefined;
}
