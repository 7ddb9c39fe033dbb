export { checkShards, type ShardCheck } from "./check-shards.js";
export { type MergeOptions, type MergeResult, mergeShards } from "./merge-shards.js";
export { mergeTriggerResults } from "./merge-triggers.js";
export { readShard, type ShardData } from "./read-shard.js";
