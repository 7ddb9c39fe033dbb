import type { PipelineResult } from "../../pipeline/index.js";
import { spentText } from "./status-line.js";

/** What the command was told about the result store: `--fresh` reads nothing from it. */
export interface StoreNote {
  fresh?: boolean;
}

export const freshNote = "the result store was not read (--fresh): every run was made again and stored";

type Spent = Pick<PipelineResult, "costUsd" | "savings" | "evals" | "triggers">;

const unpricedRuns = (r: Spent) =>
  (r.evals?.records.filter((x) => x.costUnknown).length ?? 0) +
  (r.triggers?.records.filter((x) => x.record.cost_source === "unknown").length ?? 0);

/**
 * What a pipeline spent and what the result store saved: `cost: $x spent on N runs; M runs reused from the result
 * store saved $y`; under `--fresh`, that the store was not read. `label` names the agent in a run of several.
 */
export function costLine(result: Spent, store: StoreNote = {}, label = "cost"): string {
  const unpriced = unpricedRuns(result);
  const spent = `${spentText(result.costUsd, unpriced, 4)}${unpriced ? " (no price known for the model)" : ""}`;
  const { reused, ran, savedUsd } = result.savings;
  if (store.fresh) return `${label}: ${spent} spent on ${ran} runs; ${freshNote}`;
  return reused > 0
    ? `${label}: ${spent} spent on ${ran} runs; ${reused} runs reused from the result store saved $${savedUsd.toFixed(4)}`
    : `${label}: ${spent}`;
}
