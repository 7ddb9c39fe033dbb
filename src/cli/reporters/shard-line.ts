import type { Shard } from "../../shard/index.js";

/** What a shard's own summary says first: its figures are its part of the plan, not the skill's result. */
export function shardSummaryLine(shard: Shard): string {
  return `shard ${shard.index}/${shard.count}: partial figures, this shard's part of the plan only; \`skillgym merge\` every shard's folder for the whole result`;
}
