import type { DiffPart, QueryDiff } from "../contracts/diff.js";
import type { TriggerResults } from "../contracts/trigger-results.js";
import { queryChange } from "./change.js";

/** Matches trigger queries by their text and labels each by its verdict's change. */
export function compareQueries(
  a: TriggerResults | undefined,
  b: TriggerResults | undefined,
): Pick<DiffPart, "queries" | "queries_only_in_a" | "queries_only_in_b"> {
  const left = a?.results ?? [];
  const right = new Map((b?.results ?? []).map((r) => [r.query, r]));
  const inA = new Set(left.map((r) => r.query));
  const queries = left.flatMap((r): QueryDiff[] => {
    const other = right.get(r.query);
    if (!other) return [];
    return [
      {
        query: r.query,
        should_trigger: other.should_trigger,
        a_rate: r.trigger_rate,
        b_rate: other.trigger_rate,
        a_pass: r.pass,
        b_pass: other.pass,
        change: queryChange(r.pass, other.pass),
      },
    ];
  });
  return {
    queries,
    queries_only_in_a: left.filter((r) => !right.has(r.query)).map((r) => r.query),
    queries_only_in_b: [...right.keys()].filter((q) => !inA.has(q)),
  };
}
