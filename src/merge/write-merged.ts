import { constants } from "node:fs";
import { copyFile, mkdir, readdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { writeBenchmark } from "../bench/index.js";
import type { Benchmark } from "../contracts/benchmark.js";
import type { IterationRecord, TriggerPlan } from "../contracts/run-record.js";
import type { MergedFrom, MergePartial } from "../contracts/shard.js";
import type { TriggerResults } from "../contracts/trigger-results.js";
import { writeStaticReport } from "../report/index.js";
import { writeJson } from "../runlog/atomic-write.js";
import { EVAL_METADATA_FILE, ITERATION_FILE, TRIGGERS_DIR } from "../runlog/layout.js";
import { evalFolders } from "../runlog/list-runs.js";
import { mergeTriggerResults } from "./merge-triggers.js";
import { shardRateLimits } from "./rate-limits.js";
import type { ShardData } from "./read-shard.js";
import { shardTriggerResults } from "./shard-trigger-results.js";

/** What one merged iteration folder holds, read back for the caller. */
export interface MergedIteration {
  benchmark?: Benchmark;
  triggers?: TriggerResults;
  /** Merged iteration.json, when the shards ran evals. */
  record?: IterationRecord;
  /** Every shard there, and each finished its runs. */
  complete: boolean;
  evalRuns: number;
  triggerRuns: number;
  reportFile: string;
}

// A run folder's files, copied one by one (fs.cp's per-entry checks cost more than the copies here).
async function copyFiles(from: string, to: string): Promise<void> {
  const info = await stat(from);
  if (!info.isDirectory()) {
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, to, constants.COPYFILE_EXCL);
    return;
  }
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.isDirectory()) await copyFiles(join(from, entry.name), join(to, entry.name));
    else if (entry.isFile())
      await copyFile(join(from, entry.name), join(to, entry.name), constants.COPYFILE_EXCL);
  }
}

// Copies in parallel, a few dozen at a time: thousands of small run folders.
async function copyAll(pairs: readonly [string, string][]): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < pairs.length) {
      const [from, to] = pairs[next++] as [string, string];
      await copyFiles(from, to);
    }
  };
  await Promise.all(Array.from({ length: 32 }, lane));
}

async function evalMetadataCopies(shards: readonly ShardData[], target: string): Promise<[string, string][]> {
  const seen = new Set<string>();
  const pairs: [string, string][] = [];
  for (const s of shards) {
    if (!s.iteration) continue;
    for (const folder of await evalFolders(s.dir)) {
      if (seen.has(folder)) continue;
      seen.add(folder);
      pairs.push([join(s.dir, folder, EVAL_METADATA_FILE), join(target, folder, EVAL_METADATA_FILE)]);
    }
  }
  return pairs;
}

// The merged record is the whole plan's: it keeps the shard's fields but not its place in the split.
export function withoutShard<T extends { shard?: unknown }>(record: T): T {
  const copy = { ...record };
  delete copy.shard;
  return copy;
}

/**
 * Writes one ordinary iteration into `dir` from checked shards sorted by index: the run folders, iteration.json,
 * trigger results, benchmark and report. `partial` is what they lack (partialOf): absent only when every shard is
 * there, says it completed and finished its share.
 */
export async function writeMergedIteration(
  sorted: readonly ShardData[],
  mergedFrom: MergedFrom,
  dir: string,
  partial?: MergePartial,
): Promise<MergedIteration> {
  const first = sorted[0] as ShardData;
  const complete = partial === undefined;
  const pairs: [string, string][] = await evalMetadataCopies(sorted, dir);
  for (const s of sorted) {
    for (const run of s.evalRuns) pairs.push([join(s.dir, run), join(dir, run)]);
    for (const run of s.triggerRuns)
      pairs.push([join(s.dir, TRIGGERS_DIR, run), join(dir, TRIGGERS_DIR, run)]);
  }
  await copyAll(pairs);

  // Every shard's 429s, not the first shard's alone.
  const rateLimits = shardRateLimits(sorted);
  let record: IterationRecord | undefined;
  if (first.iteration) {
    const { rate_limits: _first, ...firstRecord } = withoutShard(first.iteration);
    // A field left undefined (no 429s, nothing missing) is not written: JSON leaves it out.
    record = {
      ...firstRecord,
      rate_limits: rateLimits.evals,
      status: complete ? "complete" : "interrupted",
      finished_at: new Date().toISOString(),
      merged_from: mergedFrom,
      partial,
    };
    await writeJson(join(dir, ITERATION_FILE), record);
  }
  let triggers: TriggerResults | undefined;
  let plan: TriggerPlan | undefined;
  if (first.triggerPlan) {
    const like = sorted.find((s) => s.triggerResults)?.triggerResults;
    const parts = (await Promise.all(sorted.map((s) => shardTriggerResults(s, like)))).flatMap((r) =>
      r ? [r] : [],
    );
    const { rate_limits: _firstPlan, ...firstPlan } = withoutShard(first.triggerPlan);
    plan = {
      ...firstPlan,
      rate_limits: rateLimits.triggers,
      // A shard that finished its runs but not its trigger-results.json leaves the merged results a re-scoring.
      status: complete && sorted.every((s) => s.triggerResults) ? "complete" : "interrupted",
      merged_from: mergedFrom,
      partial,
    };
    await mkdir(join(dir, TRIGGERS_DIR), { recursive: true });
    await writeJson(join(dir, TRIGGERS_DIR, "plan.json"), plan);
    if (parts.length > 0) {
      triggers = mergeTriggerResults(parts);
      await writeJson(join(dir, TRIGGERS_DIR, "trigger-results.json"), triggers);
    }
  }
  const benchmark = first.iteration ? (await writeBenchmark(dir)).benchmark : undefined;
  // Stryker disable next-line StringLiteral: equivalent, a shard has iteration.json or triggers/plan.json, and each names its skill
  const skillName = first.iteration?.skill_name ?? first.triggerPlan?.skill_name ?? "skill";
  const reportFile = await writeStaticReport(dir, skillName);
  return {
    ...(benchmark ? { benchmark } : {}),
    ...(triggers ? { triggers } : {}),
    ...(record ? { record } : {}),
    complete: (record?.status ?? "complete") === "complete" && (plan?.status ?? "complete") === "complete",
    evalRuns: sorted.reduce((n, s) => n + s.evalRuns.length, 0),
    triggerRuns: sorted.reduce((n, s) => n + s.triggerRuns.length, 0),
    reportFile,
  };
}
