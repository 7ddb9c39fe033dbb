import type { Benchmark } from "../../contracts/benchmark.js";
import type { EvalSummary, RunRecord } from "../../run/index.js";
import { noSimScriptNotice } from "../../sim/index.js";
import { rateLimitLine } from "./rate-limit-line.js";
import { passRatesLine, verdictLines } from "./result-lines.js";
import { spentText } from "./status-line.js";

/** The runs of an `eval` counted as `--json` prints them. */
export function evalCounts(records: RunRecord[]) {
  const count = (pred: (r: RunRecord) => boolean) => records.filter(pred).length;
  const unpriced = count((r) => r.costUnknown === true);
  return {
    runs: records.length,
    succeeded: count((r) => r.outcome === "success"),
    errors: count((r) => r.outcome !== "success" && r.outcome !== "cancelled"),
    cancelled_runs: count((r) => r.outcome === "cancelled"),
    skipped_as_finished: count((r) => r.skipped),
    cost_usd: Number(records.reduce((sum, r) => sum + r.costUsd, 0).toFixed(6)),
    ...(unpriced > 0 ? { unpriced_runs: unpriced } : {}),
    tokens: records.reduce((sum, r) => sum + r.tokens, 0),
  };
}

/** The text `eval` prints: runs finished, errors, cost, the iteration folder and the pass rates. */
export function evalSummaryText(
  summary: EvalSummary,
  counts: ReturnType<typeof evalCounts>,
  benchmark: Benchmark | undefined,
): string {
  const note = summary.simulated ? " (simulated: skillgym sim stood in for the model)" : "";
  return (
    `${summary.cancelled ? "cancelled" : "done"}: ${counts.succeeded}/${counts.runs} runs finished, ${counts.errors} errors, ` +
    (counts.cancelled_runs > 0 ? `${counts.cancelled_runs} cancelled, ` : "") +
    `${spentText(counts.cost_usd, "unpriced_runs" in counts ? counts.unpriced_runs : 0, 4)}${note}\n  ${summary.iterationDir}\n` +
    (summary.simulated && summary.simScript === null ? `${noSimScriptNotice}\n` : "") +
    (benchmark ? `${[passRatesLine(benchmark), ...verdictLines(benchmark)].join("\n")}\n` : "") +
    (summary.rateLimits ? `${rateLimitLine("eval runs", summary.rateLimits)}\n` : "")
  );
}
