import { stat } from "node:fs/promises";
import { join } from "node:path";
import { AgentMatrix, AgentsIterationRecord } from "../contracts/matrix.js";
import { SkillgymError } from "../errors.js";
import { readJsonIfPresent } from "../runlog/atomic-write.js";
import { agentIterationDir, ITERATION_FILE, MATRIX_FILE } from "../runlog/layout.js";
import { readRecordIfValid } from "../runlog/read-record.js";
import { readShard, type ShardData, shardIterationDir } from "./read-shard.js";

const exists = (path: string) =>
  stat(path).then(
    () => true,
    // Stryker disable next-line ArrowFunction: equivalent, the answer is only negated, and undefined negates as false does
    () => false,
  );

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

// An agent a cut-off run never reached has no folder: the shard must run again, --partial cannot stand in for it.
async function readPart(source: string, dir: string, agent: string, status: string): Promise<ShardData> {
  const part = agentIterationDir(dir, agent);
  if (!(await exists(part)))
    throw new SkillgymError(
      "BAD_INPUT",
      `${source}: ${agent} never ran in this shard (no ${part}; its iteration.json status is ${status})`,
      { hint: "run the shard again with its own command: it resumes and runs the agents it did not reach" },
    );
  return readShard(part);
}

/** Reads a shard folder of either layout: one agent's iteration, or the root of several agents' iterations. */
export async function readAnyShard(source: string): Promise<AnyShard> {
  const dir = await shardIterationDir(source);
  const root = AgentsIterationRecord.safeParse(await readJsonIfPresent(join(dir, ITERATION_FILE)));
  if (!root.success) return { kind: "one", shard: await readShard(source) };
  const matrix = await readRecordIfValid(join(dir, MATRIX_FILE), AgentMatrix);
  const parts = await Promise.all(
    root.data.agents.map((agent) => readPart(source, dir, agent, root.data.status)),
  );
  return {
    kind: "agents",
    shard: { source, dir, record: root.data, ...(matrix ? { matrix } : {}), parts },
  };
}
