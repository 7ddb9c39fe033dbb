import { constants } from "node:fs";
import { copyFile, mkdir, readdir, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { writeBenchmark } from "../bench/index.js";
import type { Benchmark } from "../contracts/benchmark.js";
import type { IterationRecord, TriggerPlan } from "../contracts/run-record.js";
import type { MergedFrom } from "../contracts/shard.js";
import type { TriggerResults } from "../contracts/trigger-results.js";
import { SkillgymError } from "../errors.js";
import { writeStaticReport } from "../report/index.js";
import { createNextIteration } from "../run/iteration.js";
import { writeJson } from "../runlog/atomic-write.js";
import { EVAL_METADATA_FILE, ITERATION_FILE, TRIGGERS_DIR } from "../runlog/layout.js";
import { evalFolders } from "../runlog/list-runs.js";
import { checkShards } from "./check-shards.js";
import { mergeTriggerResults } from "./merge-triggers.js";
import { readShard, type ShardData } from "./read-shard.js";

export interface MergeOptions {
  shardDirs: readonly string[];
  /** The workspace whose next iteration-<N> receives the merged iteration. */
  into: string;
  /** Merge the shards there are; the missing ones are recorded, not an error. */
  partial?: boolean;
}

export interface MergeResult {
  iterationDir: string;
  mergedFrom: MergedFrom;
  evalRuns: number;
  triggerRuns: number;
  benchmark?: Benchmark;
  triggers?: TriggerResults;
  reportFile: string;
}

// A run folder's files, copied one by one (fs.cp's per-entry checks cost more than the copies here).
async function copyTree(from: string, to: string): Promise<void> {
  const info = await stat(from);
  if (!info.isDirectory()) {
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, to, constants.COPYFILE_EXCL);
    return;
  }
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.isDirectory()) await copyTree(join(from, entry.name), join(to, entry.name));
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
      await copyTree(from, to);
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
function withoutShard<T extends { shard?: unknown }>(record: T): T {
  const copy = { ...record };
  delete copy.shard;
  return copy;
}

/**
 * Checks that the shard folders are one plan's and writes one ordinary iteration from them into the next
 * iteration-<N> of `into`: the run folders, iteration.json, trigger results, benchmark and report. Refuses before
 * writing anything when the shards differ, repeat, overlap, or (without `partial`) one is missing.
 */
export async function mergeShards(options: MergeOptions): Promise<MergeResult> {
  const shards = await Promise.all(options.shardDirs.map(readShard));
  const check = checkShards(shards);
  if (check.problems.length > 0)
    throw new SkillgymError(
      "BAD_INPUT",
      `the shards do not belong to one plan:\n  ${check.problems.join("\n  ")}`,
      {
        hint: "merge the folders of one `--shard i/n` run of the same skill, suite and flags, each shard once",
      },
    );
  if (check.missing.length > 0 && !options.partial)
    throw new SkillgymError(
      "BAD_INPUT",
      `shard ${check.missing.map((i) => `${i}/${check.count}`).join(", ")} missing: ${shards.length} of ${check.count} given`,
      { hint: "give every shard's folder, or --partial to merge what exists" },
    );
  const sorted = [...shards].sort(
    (a, b) => (a.iteration ?? a.triggerPlan)!.shard!.index - (b.iteration ?? b.triggerPlan)!.shard!.index,
  );
  const first = sorted[0] as ShardData;
  const mergedFrom: MergedFrom = {
    plan_hash: (first.iteration ?? first.triggerPlan)!.shard!.plan_hash,
    count: check.count,
    shards: sorted.map((s) => (s.iteration ?? s.triggerPlan)!.shard!.index),
    missing: check.missing,
  };
  const complete = check.missing.length === 0;
  const { dir } = await createNextIteration(resolve(options.into));

  const pairs: [string, string][] = await evalMetadataCopies(sorted, dir);
  for (const s of sorted) {
    for (const run of s.evalRuns) pairs.push([join(s.dir, run), join(dir, run)]);
    for (const run of s.triggerRuns)
      pairs.push([join(s.dir, TRIGGERS_DIR, run), join(dir, TRIGGERS_DIR, run)]);
  }
  await copyAll(pairs);

  if (first.iteration) {
    const statuses = sorted.map((s) => s.iteration?.status);
    const record: IterationRecord = {
      ...withoutShard(first.iteration),
      status: complete && statuses.every((st) => st === "complete") ? "complete" : "interrupted",
      finished_at: new Date().toISOString(),
      merged_from: mergedFrom,
    };
    await writeJson(join(dir, ITERATION_FILE), record);
  }
  let triggers: TriggerResults | undefined;
  if (first.triggerPlan) {
    const parts = sorted.flatMap((s) => (s.triggerResults ? [s.triggerResults] : []));
    const plan: TriggerPlan = {
      ...withoutShard(first.triggerPlan),
      status: complete && parts.length === sorted.length ? "complete" : "interrupted",
      merged_from: mergedFrom,
    };
    await mkdir(join(dir, TRIGGERS_DIR), { recursive: true });
    await writeJson(join(dir, TRIGGERS_DIR, "plan.json"), plan);
    if (parts.length > 0) {
      triggers = mergeTriggerResults(parts);
      await writeJson(join(dir, TRIGGERS_DIR, "trigger-results.json"), triggers);
    }
  }
  const benchmark = first.iteration ? (await writeBenchmark(dir)).benchmark : undefined;
  const skillName = first.iteration?.skill_name ?? first.triggerPlan?.skill_name ?? "skill";
  const reportFile = await writeStaticReport(dir, skillName);
  return {
    iterationDir: dir,
    mergedFrom,
    evalRuns: sorted.reduce((n, s) => n + s.evalRuns.length, 0),
    triggerRuns: sorted.reduce((n, s) => n + s.triggerRuns.length, 0),
    ...(benchmark ? { benchmark } : {}),
    ...(triggers ? { triggers } : {}),
    reportFile,
  };
}
