export { parseShard, partition, type Shard } from "./partition.js";
export { planHash } from "./plan-hash.js";
