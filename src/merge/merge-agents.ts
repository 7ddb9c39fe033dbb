import { join } from "node:path";
import { type AgentOutcome, buildAgentMatrix, renderMatrixMarkdown } from "../bench/index.js";
import type { AgentMatrix, AgentsIterationRecord } from "../contracts/matrix.js";
import type { MergedFrom, MergePartial } from "../contracts/shard.js";
import { writeStaticReport } from "../report/index.js";
import { writeJson, writeTextAtomically } from "../runlog/atomic-write.js";
import { agentIterationDir, BENCHMARK_MARKDOWN_FILE, ITERATION_FILE, MATRIX_FILE } from "../runlog/layout.js";
import { byShardIndex, type ShardCheck, shardOf } from "./check-shards.js";
import type { AgentsShardData } from "./read-agents-shard.js";
import type { ShardData } from "./read-shard.js";
import { partialOf, plannedRuns, sumPartials } from "./shortfall.js";
import { type MergedIteration, writeMergedIteration } from "./write-merged.js";

export interface MergedAgent {
  agent: string;
  /** `iteration-<N>/<agent>`. */
  dir: string;
  merged: MergedIteration;
}

export interface MergedAgents {
  /** `iteration-<N>`. */
  dir: string;
  agents: MergedAgent[];
  /** Every agent's missing runs added up; absent when the merge is whole. */
  partial?: MergePartial;
  matrix: AgentMatrix;
  mergedFrom: MergedFrom;
  reportFile: string;
}

/** What the shard processes record for one agent as a merged run: cost adds up, the shards ran side by side. */
function spent(shards: readonly AgentsShardData[], folder: string): { costUsd: number; wallSeconds: number } {
  const rows = shards.flatMap((s) => s.matrix?.agents.filter((r) => r.dir === folder) ?? []);
  return {
    costUsd: rows.reduce((sum, r) => sum + r.cost_usd, 0),
    wallSeconds: rows.reduce((most, r) => Math.max(most, r.wall_seconds), 0),
  };
}

export function mergedFromOf(sorted: readonly ShardData[], check: ShardCheck): MergedFrom {
  return {
    plan_hash: shardOf(sorted[0] as ShardData).plan_hash,
    count: check.count,
    shards: sorted.map((s) => shardOf(s).index),
    missing: check.missing,
  };
}

/**
 * The merge of a `run --agent a,b --shard i/n`: each agent's shards into `iteration-<N>/<agent>/`, then the root as
 * an unsharded run over several agents writes it (iteration.json naming the agents, matrix.json, benchmark.md, report).
 */
export async function writeMergedAgents(
  shards: readonly AgentsShardData[],
  checks: readonly { agent: string; check: ShardCheck }[],
  dir: string,
): Promise<MergedAgents> {
  const sorted = byShardIndex(shards, (s) => shardOf(s.parts[0] as ShardData).index);
  const first = sorted[0] as AgentsShardData;
  const agents: MergedAgent[] = [];
  const outcomes: AgentOutcome[] = [];
  const froms: MergedFrom[] = [];
  const partials: { agent: string; planned: ReturnType<typeof plannedRuns>; partial?: MergePartial }[] = [];
  for (const [i, { agent, check }] of checks.entries()) {
    const parts = sorted.map((s) => s.parts[i] as ShardData);
    const from = mergedFromOf(parts, check);
    froms.push(from);
    const partial = partialOf(parts, check);
    partials.push({ agent, planned: plannedRuns(parts[0] as ShardData), ...(partial ? { partial } : {}) });
    const agentDir = agentIterationDir(dir, agent);
    const merged = await writeMergedIteration(parts, from, agentDir, partial);
    agents.push({ agent, dir: agentDir, merged });
    const version = merged.record?.agent?.version;
    const { costUsd, wallSeconds } = spent(sorted, agent);
    // A part of a run with --model a,b is named for its model; the root record says which agent ran it.
    const lane = first.record.lanes?.find((l) => l.dir === agent);
    outcomes.push({
      agent: lane?.agent ?? agent,
      ...(version ? { version } : {}),
      ...(lane?.model ? { model: lane.model } : {}),
      dir: agent,
      status: merged.complete ? "complete" : "interrupted",
      ...(merged.benchmark ? { benchmark: merged.benchmark } : {}),
      ...(merged.triggers ? { triggers: merged.triggers.summary } : {}),
      costUsd,
      wallSeconds,
    });
  }
  const simulated = sorted.some((s) => s.record.simulated === true);
  const matrix = buildAgentMatrix({
    skillName: first.record.skill_name,
    simulated,
    timestamp: new Date().toISOString(),
    outcomes,
  });
  const firstFrom = froms[0] as MergedFrom;
  const mergedFrom: MergedFrom = { ...firstFrom, plan_hash: froms.map((f) => f.plan_hash).join(",") };
  await writeJson(join(dir, MATRIX_FILE), matrix);
  await writeTextAtomically(join(dir, BENCHMARK_MARKDOWN_FILE), renderMatrixMarkdown(matrix));
  const partial = sumPartials(partials);
  const record: AgentsIterationRecord = {
    ...first.record,
    status: outcomes.every((o) => o.status === "complete") ? "complete" : "interrupted",
    finished_at: new Date().toISOString(),
    simulated,
    merged_from: mergedFrom,
    ...(partial ? { partial } : {}),
  };
  await writeJson(join(dir, ITERATION_FILE), record);
  const reportFile = await writeStaticReport(dir, first.record.skill_name);
  return { dir, agents, ...(partial ? { partial } : {}), matrix, mergedFrom, reportFile };
}
