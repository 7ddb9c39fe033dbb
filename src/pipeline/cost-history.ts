import { join } from "node:path";
import { Timing } from "../contracts/timing.js";
import { readIterationRecord } from "../run/iteration.js";
import { readJsonIfPresent } from "../runlog/atomic-write.js";
import { iterationDirName, runDir, runPaths } from "../runlog/layout.js";
import { iterationNumbers } from "../runlog/list-runs.js";
import { defaultUnitCosts, type UnitCosts } from "./estimate.js";

/** The mean cost of an agent run in the latest real (not simulated) iteration, when there is one. */
export async function unitCostsFromHistory(workspace: string): Promise<UnitCosts> {
  const numbers = (await iterationNumbers(workspace)).reverse();
  for (const n of numbers) {
    const dir = join(workspace, iterationDirName(n));
    const record = await readIterationRecord(dir);
    if (!record || record.simulated) continue;
    const costs: number[] = [];
    for (const id of record.plan.evals) {
      for (const configuration of record.plan.configurations) {
        for (let k = 1; k <= record.plan.runs_per_configuration; k++) {
          const timing = Timing.safeParse(
            await readJsonIfPresent(runPaths(runDir(dir, id, configuration, k)).timing),
          );
          if (timing.success && timing.data.cost_usd !== undefined && timing.data.cost_usd > 0)
            costs.push(timing.data.cost_usd);
        }
      }
    }
    if (costs.length > 0)
      return { ...defaultUnitCosts, agentRunUsd: costs.reduce((a, b) => a + b, 0) / costs.length };
  }
  return defaultUnitCosts;
}
