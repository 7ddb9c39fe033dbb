import { byShardIndex, checkShards, type ShardCheck, shardOf } from "./check-shards.js";
import type { AgentsShardData, AnyShard } from "./read-agents-shard.js";
import type { ShardData } from "./read-shard.js";

export interface AgentShardsCheck {
  /** Each names the shard folders and what differs; any one refuses the merge. */
  problems: string[];
  /** The agents every shard ran, in order, with each one's check over the shards; empty when they differ. */
  agents: { agent: string; check: ShardCheck }[];
}

const names = (agents: readonly string[]) => agents.join(", ");

const agentsOf = (s: AnyShard) =>
  s.kind === "agents" ? s.shard.record.agents : [s.shard.iteration?.agent?.name ?? "(one agent)"];

/** A shard's index, read from its first agent's part when it ran several. */
export function anyShardIndex(s: AnyShard): number {
  const part = s.kind === "agents" ? s.shard.parts[0] : s.shard;
  return part ? shardOf(part).index : 0;
}

/** Whether shards of a run over several agents ran the same agents, and each agent's parts are one plan. */
export function checkAgentShards(given: readonly AnyShard[]): AgentShardsCheck {
  const shards = byShardIndex(given, anyShardIndex);
  const problems: string[] = [];
  const first = shards[0];
  if (!first) return { problems: ["no shard folders given"], agents: [] };
  const want = agentsOf(first);
  const kind = (s: AnyShard) => (s.kind === "agents" ? " (a run of several)" : " (a run of one)");
  // Stryker disable next-line MethodExpression: equivalent, the first shard compared with itself differs in nothing.
  for (const other of shards.slice(1)) {
    const got = agentsOf(other);
    const kinds = other.kind === first.kind ? ["", ""] : [kind(first), kind(other)];
    // A run of one names one agent and a run of several two or more: runs of each kind differ in their agents.
    if (names(got) !== names(want))
      problems.push(
        `${first.shard.source} vs ${other.shard.source}:\n    agents: ${names(want)}${kinds[0]} vs ${names(got)}${kinds[1]}`,
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
