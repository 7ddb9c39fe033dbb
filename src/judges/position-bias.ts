import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { Comparison } from "../contracts/comparison.js";
import type { PositionBias } from "../contracts/judges.js";
import { evalFolders } from "../runlog/list-runs.js";
import { readRecordIfValid } from "../runlog/read-record.js";

/**
 * How often the blind comparisons written in an iteration's eval folders (`comparison-<n>.json`) changed their winner
 * with the order the outputs were shown; undefined when the iteration holds none made in both orders.
 */
export async function positionBiasOf(iterationDir: string): Promise<PositionBias | undefined> {
  let compared = 0;
  let biased = 0;
  for (const folder of await evalFolders(iterationDir)) {
    const names = await readdir(join(iterationDir, folder)).catch(() => [] as string[]);
    for (const name of names.filter((n) => /^comparison-\d+\.json$/.test(n))) {
      const comparison = await readRecordIfValid(join(iterationDir, folder, name), Comparison);
      if (comparison?.position_bias === undefined) continue;
      compared++;
      if (comparison.position_bias) biased++;
    }
  }
  return compared === 0 ? undefined : { comparisons: compared, biased, rate: biased / compared };
}
