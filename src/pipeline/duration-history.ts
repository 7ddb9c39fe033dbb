import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { TriggerRun } from "../contracts/run-record.js";
import { Timing } from "../contracts/timing.js";
import { readIterationRecord } from "../run/iteration.js";
import { readJsonIfPresent } from "../runlog/atomic-write.js";
import { evalDirName } from "../runlog/layout.js";
import { iterationNumbers } from "../runlog/list-runs.js";
import { defaultUnitSeconds, simulatedUnitSeconds, type UnitSeconds } from "./estimate.js";

const mean = (xs: number[]) => (xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined);

async function subfolders(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    // Stryker disable next-line ArrayDeclaration: equivalent, a made-up folder name under a folder that cannot be read holds no trigger.json either
    return [];
  }
}

async function triggerRunSeconds(iterationDir: string): Promise<number[]> {
  const triggersDir = join(iterationDir, "triggers");
  const seconds: number[] = [];
  for (const query of await subfolders(triggersDir)) {
    for (const run of await subfolders(join(triggersDir, query))) {
      const parsed = TriggerRun.safeParse(
        await readJsonIfPresent(join(triggersDir, query, run, "trigger.json")),
      );
      if (parsed.success && parsed.data.duration_ms > 0) seconds.push(parsed.data.duration_ms / 1000);
    }
  }
  return seconds;
}

/**
 * How long a run took in the latest iteration of the same kind (simulated or not) that measured it, else the
 * defaults: what `--dry-run` turns into an estimated wall time.
 */
export async function unitSecondsFromHistory(workspace: string, simulated: boolean): Promise<UnitSeconds> {
  const fallback = simulated ? simulatedUnitSeconds : defaultUnitSeconds;
  let agentRun: number | undefined;
  let judgeCall: number | undefined;
  let triggerRun: number | undefined;
  for (const n of (await iterationNumbers(workspace)).reverse()) {
    const dir = join(workspace, `iteration-${n}`);
    const record = await readIterationRecord(dir);
    if (record && record.simulated === simulated && agentRun === undefined) {
      const executor: number[] = [];
      const grader: number[] = [];
      for (const id of record.plan.evals)
        for (const configuration of record.plan.configurations)
          for (let k = 1; k <= record.plan.runs_per_configuration; k++) {
            const timing = Timing.safeParse(
              await readJsonIfPresent(join(dir, evalDirName(id), configuration, `run-${k}`, "timing.json")),
            );
            if (!timing.success) continue;
            if (timing.data.executor_duration_seconds) executor.push(timing.data.executor_duration_seconds);
            if (timing.data.grader_duration_seconds) grader.push(timing.data.grader_duration_seconds);
          }
      agentRun = mean(executor);
      judgeCall = mean(grader);
    }
    if (triggerRun === undefined) {
      const seconds = await triggerRunSeconds(dir);
      // A trigger-only iteration has no iteration.json; the runs say themselves whether they were simulated.
      const kind = TriggerRun.safeParse(
        await readJsonIfPresent(join(dir, "triggers", "query-1", "run-1", "trigger.json")),
      );
      if (kind.success && (kind.data.simulated ?? false) === simulated) triggerRun = mean(seconds);
    }
    // Stryker disable next-line ConditionalExpression: equivalent, once both are measured the older iterations change nothing
    if (agentRun !== undefined && triggerRun !== undefined) break;
  }
  return {
    agentRun: agentRun ?? fallback.agentRun,
    judgeCall: judgeCall ?? fallback.judgeCall,
    triggerRun: triggerRun ?? fallback.triggerRun,
    measured: agentRun !== undefined || triggerRun !== undefined,
  };
}
