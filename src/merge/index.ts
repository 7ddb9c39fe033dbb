export { type AgentShardsCheck, checkAgentShards } from "./check-agent-shards.js";
export { checkShards, type ShardCheck } from "./check-shards.js";
export { type MergedAgent, writeMergedAgents } from "./merge-agents.js";
export { type MergeOptions, type MergeResult, mergeShards } from "./merge-shards.js";
export { mergeTriggerResults } from "./merge-triggers.js";
export { type AgentsShardData, type AnyShard, readAnyShard } from "./read-agents-shard.js";
export { readShard, type ShardData } from "./read-shard.js";
