import { join } from "node:path";
import { AgentMatrix, AgentsIterationRecord } from "../contracts/matrix.js";
import { readJsonIfPresent } from "../runlog/atomic-write.js";
import { agentIterationDir, ITERATION_FILE, MATRIX_FILE } from "../runlog/layout.js";
import { readRecordIfValid } from "../runlog/read-record.js";
import { readShard, type ShardData, shardIterationDir } from "./read-shard.js";

/** One shard of a `run --agent a,b --shard i/n`: the root record, its matrix, and each agent's part as a shard. */
export interface AgentsShardData {
  source: string;
  /** The iteration folder whose iteration.json names the agents. */
  dir: string;
  record: AgentsIterationRecord;
  /** The shard's own matrix: each agent's cost and wall time on that machine. */
  matrix?: AgentMatrix;
  /** In the record's agent order. */
  parts: ShardData[];
}

export type AnyShard = { kind: "one"; shard: ShardData } | { kind: "agents"; shard: AgentsShardData };

/** Reads a shard folder of either layout: one agent's iteration, or the root of several agents' iterations. */
export async function readAnyShard(source: string): Promise<AnyShard> {
  const dir = await shardIterationDir(source);
  const root = AgentsIterationRecord.safeParse(await readJsonIfPresent(join(dir, ITERATION_FILE)));
  if (!root.success) return { kind: "one", shard: await readShard(source) };
  const matrix = await readRecordIfValid(join(dir, MATRIX_FILE), AgentMatrix);
  const parts = await Promise.all(root.data.agents.map((agent) => readShard(agentIterationDir(dir, agent))));
  return {
    kind: "agents",
    shard: { source, dir, record: root.data, ...(matrix ? { matrix } : {}), parts },
  };
}
