import type { EvalId } from "../contracts/evals.js";

/** One expectation of one run: what every judge (and a reviewer) gives a verdict on. */
export interface GradedItem {
  /** feedback.json's key of the run. */
  runId: string;
  evalId: EvalId;
  text: string;
}

export interface ItemVerdict {
  passed: boolean;
  evidence: string;
}

/** Every verdict of the re-grading: judge id → item key → one verdict per repeat, in order. */
export type VerdictTable = Map<string, Map<string, ItemVerdict[]>>;

export function itemKey(runId: string, text: string): string {
  return `${runId}\u0000${text}`;
}

/** Adds one verdict of a judge; the repeats of an item keep their order. */
export function addVerdict(table: VerdictTable, judge: string, key: string, verdict: ItemVerdict): void {
  let byItem = table.get(judge);
  if (!byItem) {
    byItem = new Map();
    table.set(judge, byItem);
  }
  const list = byItem.get(key) ?? [];
  list.push(verdict);
  byItem.set(key, list);
}
