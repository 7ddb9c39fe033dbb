import { resolve } from "node:path";
import type { Benchmark } from "../contracts/benchmark.js";
import type { AgentMatrix } from "../contracts/matrix.js";
import type { MergedFrom, MergePartial } from "../contracts/shard.js";
import type { TriggerResults } from "../contracts/trigger-results.js";
import type { PipelineResult } from "../pipeline/index.js";
import { createNextIteration } from "../run/iteration.js";
import { checkAgentShards } from "./check-agent-shards.js";
import { byShardIndex, checkShards, shardOf } from "./check-shards.js";
import { type MergedAgent, mergedFromOf, writeMergedAgents } from "./merge-agents.js";
import { mergedRunResult } from "./merged-run-result.js";
import { shardRateLimits, slowestShardSeconds } from "./rate-limits.js";
import { type AgentsShardData, type AnyShard, readAnyShard } from "./read-agents-shard.js";
import type { ShardData } from "./read-shard.js";
import { refuseIntoShard, refusePlanProblems, refuseShortfalls, shortfallLines } from "./refusals.js";
import { partialOf } from "./shortfall.js";
import { writeMergedIteration } from "./write-merged.js";

export interface MergeOptions {
  shardDirs: readonly string[];
  /** The workspace whose next iteration-<N> receives the merged iteration. */
  into: string;
  /** Merge what there is: shards missing, interrupted or short of runs are recorded, not an error. */
  partial?: boolean;
}

export interface MergeResult {
  iterationDir: string;
  mergedFrom: MergedFrom;
  evalRuns: number;
  triggerRuns: number;
  benchmark?: Benchmark;
  triggers?: TriggerResults;
  /** What a `--partial` merge lacks (with several agents: all agents' added up); absent when it is whole. */
  partial?: MergePartial;
  simulated: boolean;
  /** One agent's merge read back as `run` reports its result (the gates are the caller's to apply). */
  run?: Omit<PipelineResult, "gates">;
  /** Shards of a run over several agents: each agent's merged iteration, and the matrix at the root. */
  agents?: MergedAgent[];
  matrix?: AgentMatrix;
  /** The skill the shards ran, from their iteration or trigger plan: there even when no shard wrote results. */
  skillName: string;
  reportFile: string;
}

// Read side by side, but a folder that cannot be read is named in the order given, whichever failed first.
async function readInOrder(dirs: readonly string[]): Promise<AnyShard[]> {
  const settled = await Promise.allSettled(dirs.map(readAnyShard));
  const failed = settled.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<AnyShard>).value);
}

async function mergeAgents(read: AnyShard[], dir: () => Promise<string>, partial: boolean) {
  const checked = checkAgentShards(read);
  refusePlanProblems(checked.problems);
  const shards = read.map((s) => s.shard as AgentsShardData);
  const lines = checked.agents.flatMap(({ agent, check }, i) =>
    shortfallLines(
      partialOf(
        byShardIndex(
          shards.map((s) => s.parts[i] as ShardData),
          (p) => shardOf(p).index,
        ),
        check,
      ),
      shards.length,
    ).map((line) => `${agent}: ${line}`),
  );
  refuseShortfalls(lines, partial);
  return writeMergedAgents(shards, checked.agents, await dir());
}

// Every shard holds an iteration record or a trigger plan (read-shard refuses a folder with neither).
function skillNameOf(shards: readonly ShardData[]): string {
  const first = shards[0]!;
  return (first.iteration ?? first.triggerPlan)!.skill_name;
}

/**
 * Checks that the shard folders are one plan's and writes one ordinary iteration from them into the next
 * iteration-<N> of `into`: the run folders, iteration.json, trigger results, benchmark and report (with several
 * agents, one such folder per agent and the matrix at the root). Refuses before writing anything when the shards
 * differ, repeat or overlap, when `into` is a shard's folder, and (without `partial`) when a shard is missing,
 * was interrupted or lacks runs.
 */
export async function mergeShards(options: MergeOptions): Promise<MergeResult> {
  const read = await readInOrder(options.shardDirs);
  refuseIntoShard(
    options.into,
    read.map((s) => s.shard),
  );
  const partial = options.partial === true;
  const next = async () => (await createNextIteration(resolve(options.into))).dir;
  if (read.some((s) => s.kind === "agents")) {
    const merged = await mergeAgents(read, next, partial);
    return {
      iterationDir: merged.dir,
      mergedFrom: merged.mergedFrom,
      evalRuns: merged.agents.reduce((n, a) => n + a.merged.evalRuns, 0),
      triggerRuns: merged.agents.reduce((n, a) => n + a.merged.triggerRuns, 0),
      ...(merged.partial ? { partial: merged.partial } : {}),
      simulated: merged.matrix.simulated === true,
      agents: merged.agents,
      matrix: merged.matrix,
      skillName: merged.matrix.skill_name,
      reportFile: merged.reportFile,
    };
  }
  const shards = byShardIndex(
    read.map((s) => s.shard as ShardData),
    (s) => shardOf(s).index,
  );
  const check = checkShards(shards);
  refusePlanProblems(check.problems);
  const missing = partialOf(shards, check);
  refuseShortfalls(shortfallLines(missing, shards.length), partial);
  const mergedFrom = mergedFromOf(shards, check);
  const dir = await next();
  const merged = await writeMergedIteration(shards, mergedFrom, dir, missing);
  const record = shards[0]?.iteration;
  // The merged trigger results are a shard's with the runs added up: one of these.
  const simulated = shards.some(
    (s) => s.iteration?.simulated === true || s.triggerResults?.simulated === true,
  );
  const agent = record?.agent ?? merged.triggers?.agent;
  const run = await mergedRunResult({
    dir,
    ...(merged.benchmark ? { benchmark: merged.benchmark } : {}),
    ...(merged.triggers ? { triggers: merged.triggers } : {}),
    simulated,
    ...(record?.sim_script !== undefined ? { simScript: record.sim_script } : {}),
    ...(agent ? { agent: { name: agent.name, ...(agent.version ? { version: agent.version } : {}) } } : {}),
    rateLimits: shardRateLimits(shards),
    reportFile: merged.reportFile,
    wallSeconds: slowestShardSeconds(shards),
  });
  return {
    iterationDir: dir,
    mergedFrom,
    evalRuns: merged.evalRuns,
    triggerRuns: merged.triggerRuns,
    ...(merged.benchmark ? { benchmark: merged.benchmark } : {}),
    ...(merged.triggers ? { triggers: merged.triggers } : {}),
    ...(missing ? { partial: missing } : {}),
    simulated,
    run,
    skillName: skillNameOf(shards),
    reportFile: merged.reportFile,
  };
}
