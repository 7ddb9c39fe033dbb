export { missingRunsText, partialText, shortfallText } from "./partial-text.js";
export { parseShard, partition, type Shard, shareSize } from "./partition.js";
export { planHash } from "./plan-hash.js";
