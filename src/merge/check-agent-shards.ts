import { checkShards, type ShardCheck } from "./check-shards.js";
import type { AgentsShardData, AnyShard } from "./read-agents-shard.js";
import type { ShardData } from "./read-shard.js";

export interface AgentShardsCheck {
  /** Each names the shard folder and what differs; any one refuses the merge. */
  problems: string[];
  /** The agents every shard ran, in order, with each one's check over the shards; empty when they differ. */
  agents: { agent: string; check: ShardCheck }[];
}

const names = (agents: readonly string[]) => agents.join(", ");

/** Whether shards of a run over several agents ran the same agents, and each agent's parts are one plan. */
export function checkAgentShards(shards: readonly AnyShard[]): AgentShardsCheck {
  const problems: string[] = [];
  const first = shards[0];
  if (!first) return { problems: ["no shard folders given"], agents: [] };
  const agentsOf = (s: AnyShard) =>
    s.kind === "agents" ? s.shard.record.agents : [s.shard.iteration?.agent?.name ?? "(one agent)"];
  const want = agentsOf(first);
  for (const other of shards.slice(1)) {
    const got = agentsOf(other);
    if (other.kind !== first.kind)
      problems.push(
        `${other.shard.source}: ran ${other.kind === "agents" ? "several agents" : "one agent"} (${names(got)}), but ${first.shard.source} ran ${first.kind === "agents" ? "several" : "one"} (${names(want)})`,
      );
    else if (names(got) !== names(want))
      problems.push(
        `${other.shard.source}: iteration.json agents are ${names(got)}, but ${first.shard.source} has ${names(want)}`,
      );
  }
  if (problems.length > 0) return { problems, agents: [] };
  const all = shards.map((s) => s.shard as AgentsShardData);
  const agents = want.map((agent, i) => {
    const check = checkShards(all.map((s) => s.parts[i] as ShardData));
    problems.push(...check.problems.map((p) => `${agent}: ${p}`));
    return { agent, check };
  });
  return { problems, agents };
}
