import { mkdir } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { IterationRecord } from "../contracts/run-record.js";
import { writeJson } from "../runlog/atomic-write.js";
import { ITERATION_FILE, iterationDirName } from "../runlog/layout.js";
import { iterationNumbers } from "../runlog/list-runs.js";
import { readRecordIfValid } from "../runlog/read-record.js";

export function defaultWorkspace(skillDir: string, skillName: string): string {
  return join(dirname(resolve(skillDir)), `${skillName || basename(skillDir)}-workspace`);
}

/**
 * Marks an iteration interrupted after its evals wrote `complete`: a later phase (the trigger runs) was cut short,
 * so the iteration as a whole did not finish and the next run resumes it.
 */
export async function markIterationInterrupted(dir: string): Promise<void> {
  const record = await readIterationRecord(dir);
  if (!record || record.status === "interrupted") return;
  await writeJson(join(dir, ITERATION_FILE), {
    ...record,
    status: "interrupted",
    finished_at: new Date().toISOString(),
  } satisfies IterationRecord);
}

export async function readIterationRecord(dir: string): Promise<IterationRecord | undefined> {
  return readRecordIfValid(join(dir, ITERATION_FILE), IterationRecord);
}

function samePlan(a: IterationRecord["plan"], b: IterationRecord["plan"]): boolean {
  const key = (p: IterationRecord["plan"]) =>
    JSON.stringify([
      p.evals.map(String).sort(),
      p.configurations,
      p.runs_per_configuration,
      p.baseline_skill_path ?? null,
    ]);
  return key(a) === key(b);
}

/**
 * The folder this invocation writes: the latest iteration when it was interrupted with the same skill and plan
 * (or when `resume` is asked for), else a new `iteration-<N+1>/`.
 */
export async function chooseIteration(
  workspace: string,
  wanted: { skillHash: string; plan: IterationRecord["plan"]; shard?: IterationRecord["shard"] },
  resume: boolean,
): Promise<{ dir: string; number: number; resumed: boolean }> {
  const numbers = await iterationNumbers(workspace);
  const latest = numbers.at(-1);
  if (latest !== undefined) {
    const dir = join(workspace, iterationDirName(latest));
    const record = await readIterationRecord(dir);
    const unfinished = record !== undefined && record.status !== "complete";
    const matches =
      record !== undefined &&
      record.skill_hash === wanted.skillHash &&
      samePlan(record.plan, wanted.plan) &&
      JSON.stringify(record.shard ?? null) === JSON.stringify(wanted.shard ?? null);
    if (resume || (unfinished && matches)) return { dir, number: latest, resumed: true };
  }
  return { ...(await createNextIteration(workspace)), resumed: false };
}

export async function createNextIteration(workspace: string): Promise<{ dir: string; number: number }> {
  const number = ((await iterationNumbers(workspace)).at(-1) ?? 0) + 1;
  const dir = join(workspace, iterationDirName(number));
  await mkdir(dir, { recursive: true });
  return { dir, number };
}

/** A given iteration folder: resumed when an earlier invocation already wrote its iteration.json. */
export async function iterationIn(into: {
  dir: string;
  number: number;
}): Promise<{ dir: string; number: number; resumed: boolean }> {
  const resumed = (await readIterationRecord(into.dir)) !== undefined;
  await mkdir(into.dir, { recursive: true });
  return { ...into, resumed };
}
