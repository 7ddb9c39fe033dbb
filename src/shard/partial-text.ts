import type { MergePartial, ShardShortfall } from "../contracts/shard.js";

/** `4 of 13 trigger runs missing`, or `no run missing`. */
export function missingRunsText(
  missing: { eval: number; trigger: number },
  planned: { eval: number; trigger: number },
): string {
  const parts = [
    ...(missing.eval > 0 ? [`${missing.eval} of ${planned.eval} eval runs`] : []),
    ...(missing.trigger > 0 ? [`${missing.trigger} of ${planned.trigger} trigger runs`] : []),
  ];
  return parts.length > 0 ? `${parts.join(" and ")} missing` : "no run missing";
}

const stateWords: Record<ShardShortfall["state"], string> = {
  missing: "not given",
  interrupted: "interrupted",
  running: "never finished",
  incomplete: "incomplete",
};

/** One shard's shortfall in words: `shard 1/2 interrupted: 4 of 13 trigger runs missing`. */
export function shortfallText(s: ShardShortfall, count: number): string {
  return `${s.agent ? `${s.agent} ` : ""}shard ${s.index}/${count} ${stateWords[s.state]}: ${missingRunsText(s.missing_runs, s.planned_runs)}`;
}

/** What a `--partial` merge lacks, in one sentence for the terminal, the benchmark notes and the report. */
export function partialText(partial: MergePartial): string {
  const shards = partial.shards.map((s) => shortfallText(s, partial.count)).join("; ");
  return `partial merge: ${missingRunsText(partial.missing_runs, partial.planned_runs)} (${shards}); the figures cover only the runs that finished`;
}
