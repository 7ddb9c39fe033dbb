import { join } from "node:path";
import { RunHistory } from "../contracts/run-history.js";
import { HISTORY_FILE } from "../runlog/layout.js";
import type { JsonCache } from "../runlog/record-cache.js";
import type { HistoryPoint } from "./view-model.js";

/** The rows of history.json in the workspace `root`, by version (`iteration-3`, `iteration-3/old`); empty without one. */
export async function readHistoryPoints(cache: JsonCache, root: string): Promise<Map<string, HistoryPoint>> {
  const history = await cache.value(join(root, HISTORY_FILE), RunHistory);
  const points = new Map<string, HistoryPoint>();
  for (const row of history?.iterations ?? []) {
    if (row.iteration === undefined) continue;
    points.set(row.version, {
      version: row.version,
      parent: row.parent,
      delta: row.delta
        ? { estimate: row.delta.estimate, ci_low: row.delta.ci_low, ci_high: row.delta.ci_high }
        : null,
      verdict: row.verdict ?? null,
      redundant: row.redundant === true,
      effect_floor: row.effect_floor ?? null,
      change: row.change ?? null,
      regressed_evals: row.regressed_evals ?? null,
    });
  }
  return points;
}
