import type { TriggerQuery } from "../contracts/evals.js";
import type { TriggerQueryResult, TriggerSummary } from "../contracts/trigger-results.js";

/** What one trigger run found; `error` set means it could not be scored. */
export interface TriggerRunResult {
  queryIndex: number;
  triggered: boolean;
  stolenBy: string[];
  error?: string;
}

/** A query passes when a should-trigger query triggers at the threshold or more, any other below it. */
export const passes = (rate: number, shouldTrigger: boolean, threshold: number): boolean =>
  shouldTrigger ? rate >= threshold : rate < threshold;

export function scoreQuery(
  query: TriggerQuery,
  runs: readonly TriggerRunResult[],
  threshold: number,
): TriggerQueryResult {
  const errors = runs.filter((r) => r.error !== undefined).length;
  const scored = runs.filter((r) => r.error === undefined);
  const triggers = scored.filter((r) => r.triggered).length;
  const rate = scored.length === 0 ? null : triggers / scored.length;
  const pass = rate === null ? null : passes(rate, query.should_trigger, threshold);
  const stolen: Record<string, number> = {};
  for (const run of scored) for (const skill of run.stolenBy) stolen[skill] = (stolen[skill] ?? 0) + 1;
  return {
    query: query.query,
    should_trigger: query.should_trigger,
    trigger_rate: rate,
    triggers,
    runs: runs.length,
    errors,
    pass,
    ...(Object.keys(stolen).length > 0 ? { stolen_by: stolen } : {}),
  };
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

// Precision, recall, F1 and accuracy over scored runs: a run of a should-trigger query that triggered is a true positive.
export function summarize(results: readonly TriggerQueryResult[]): TriggerSummary {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const r of results) {
    const scored = r.runs - r.errors;
    if (r.should_trigger) {
      tp += r.triggers;
      fn += scored - r.triggers;
    } else {
      fp += r.triggers;
      tn += scored - r.triggers;
    }
  }
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  const f1 =
    precision === null || recall === null || precision + recall === 0
      ? null
      : (2 * precision * recall) / (precision + recall);
  return {
    total: results.length,
    passed: results.filter((r) => r.pass === true).length,
    failed: results.filter((r) => r.pass === false).length,
    errors: results.filter((r) => r.pass === null).length,
    precision,
    recall,
    f1,
    accuracy: ratio(tp + tn, tp + tn + fp + fn),
  };
}
