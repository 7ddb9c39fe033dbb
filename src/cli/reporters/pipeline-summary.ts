import type { PipelineResult } from "../../pipeline/index.js";
import { noSimScriptNotice } from "../../sim/index.js";
import { rateLimitLine } from "./rate-limit-line.js";
import { passRatesLine, pct } from "./result-lines.js";
import { spentText } from "./status-line.js";

/** The text `run` prints: pass rates, errors, trigger scores, cost, gates and the report. */
export function pipelineSummaryLines(result: PipelineResult): string[] {
  const lines: string[] = [];
  if (result.simulated)
    lines.push(
      "SIMULATED: skillgym sim stood in for the model; these results test the suite, not the skill.",
    );
  if (result.simulated && result.simScript === null && result.evals) lines.push(noSimScriptNotice);
  if (result.benchmark) lines.push(passRatesLine(result.benchmark));
  const records = result.evals?.records ?? [];
  const cancelled = records.filter((r) => r.outcome === "cancelled").length;
  const errors = records.filter((r) => r.outcome !== "success" && r.outcome !== "cancelled").length;
  if (errors > 0) lines.push(`${errors} eval runs errored (left out of the pass rates)`);
  if (cancelled > 0) lines.push(`${cancelled} eval runs cancelled (run again to finish them)`);
  const t = result.triggers?.results.summary;
  if (t) {
    lines.push(
      `triggers: ${t.passed}/${t.total} queries passed, accuracy ${pct(t.accuracy)}, precision ${pct(t.precision)}, recall ${pct(t.recall)}`,
    );
  }
  for (const line of [
    rateLimitLine("eval runs", result.evals?.rateLimits),
    rateLimitLine("trigger runs", result.triggers?.rateLimits),
  ])
    if (line) lines.push(line);
  if (result.budgetExhausted) lines.push("stopped scheduling runs: --max-cost reached");
  const unpriced =
    records.filter((r) => r.costUnknown).length +
    (result.triggers?.records.filter((r) => r.record.cost_source === "unknown").length ?? 0);
  const spent = `${spentText(result.costUsd, unpriced, 4)}${unpriced ? " (no price known for the model)" : ""}`;
  const { reused, ran, savedUsd } = result.savings;
  lines.push(
    reused > 0
      ? `cost: ${spent} spent on ${ran} runs; ${reused} runs reused from the result store saved $${savedUsd.toFixed(4)}`
      : `cost: ${spent}`,
  );
  for (const gate of result.gates)
    lines.push(`gate ${gate.name}: ${gate.passed ? "passed" : "FAILED"} (${gate.message})`);
  lines.push(`report: ${result.reportFile}`);
  return lines;
}
