import { resolve } from "node:path";
import type { Benchmark } from "../contracts/benchmark.js";
import type { AgentMatrix } from "../contracts/matrix.js";
import type { MergedFrom } from "../contracts/shard.js";
import type { TriggerResults } from "../contracts/trigger-results.js";
import { SkillgymError } from "../errors.js";
import { createNextIteration } from "../run/iteration.js";
import { checkAgentShards } from "./check-agent-shards.js";
import { checkShards, type ShardCheck } from "./check-shards.js";
import { type MergedAgent, mergedFromOf, writeMergedAgents } from "./merge-agents.js";
import { type AgentsShardData, readAnyShard } from "./read-agents-shard.js";
import type { ShardData } from "./read-shard.js";
import { writeMergedIteration } from "./write-merged.js";

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
  /** Shards of a run over several agents: each agent's merged iteration, and the matrix at the root. */
  agents?: MergedAgent[];
  matrix?: AgentMatrix;
  reportFile: string;
}

function refuseUnless(problems: readonly string[], check: ShardCheck, partial: boolean): void {
  if (problems.length > 0)
    throw new SkillgymError(
      "BAD_INPUT",
      `the shards do not belong to one plan:\n  ${problems.join("\n  ")}`,
      {
        hint: "merge the folders of one `--shard i/n` run of the same skill, suite, agents and flags, each shard once",
      },
    );
  if (check.missing.length > 0 && !partial)
    throw new SkillgymError(
      "BAD_INPUT",
      `shard ${check.missing.map((i) => `${i}/${check.count}`).join(", ")} missing: ${check.count - check.missing.length} of ${check.count} given`,
      { hint: "give every shard's folder, or --partial to merge what exists" },
    );
}

const indexOf = (s: ShardData) => (s.iteration ?? s.triggerPlan)?.shard?.index ?? 0;

/**
 * Checks that the shard folders are one plan's and writes one ordinary iteration from them into the next
 * iteration-<N> of `into`: the run folders, iteration.json, trigger results, benchmark and report (with several
 * agents, one such folder per agent and the matrix at the root). Refuses before writing anything when the shards
 * differ, repeat, overlap, or (without `partial`) one is missing.
 */
export async function mergeShards(options: MergeOptions): Promise<MergeResult> {
  const read = await Promise.all(options.shardDirs.map(readAnyShard));
  const partial = options.partial === true;
  if (read.some((s) => s.kind === "agents")) {
    const checked = checkAgentShards(read);
    const firstCheck = checked.agents[0]?.check ?? { problems: [], count: 0, missing: [] };
    refuseUnless(checked.problems, firstCheck, partial);
    const { dir } = await createNextIteration(resolve(options.into));
    const shards = read.map((s) => s.shard as AgentsShardData);
    const merged = await writeMergedAgents(shards, checked.agents, dir);
    return {
      iterationDir: dir,
      mergedFrom: merged.mergedFrom,
      evalRuns: merged.agents.reduce((n, a) => n + a.merged.evalRuns, 0),
      triggerRuns: merged.agents.reduce((n, a) => n + a.merged.triggerRuns, 0),
      agents: merged.agents,
      matrix: merged.matrix,
      reportFile: merged.reportFile,
    };
  }
  const shards = read.map((s) => s.shard as ShardData);
  const check = checkShards(shards);
  refuseUnless(check.problems, check, partial);
  const sorted = [...shards].sort((a, b) => indexOf(a) - indexOf(b));
  const mergedFrom = mergedFromOf(sorted, check);
  const { dir } = await createNextIteration(resolve(options.into));
  const merged = await writeMergedIteration(sorted, mergedFrom, dir);
  return {
    iterationDir: dir,
    mergedFrom,
    evalRuns: merged.evalRuns,
    triggerRuns: merged.triggerRuns,
    ...(merged.benchmark ? { benchmark: merged.benchmark } : {}),
    ...(merged.triggers ? { triggers: merged.triggers } : {}),
    reportFile: merged.reportFile,
  };
}
