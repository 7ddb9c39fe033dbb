import type { PipelineResult } from "../../pipeline/index.js";
import { noSimScriptNotice } from "../../sim/index.js";
import { costLine, type StoreNote } from "./cost-line.js";
import { rateLimitLine } from "./rate-limit-line.js";
import { passRatesLine, pct, verdictLines } from "./result-lines.js";
import { screenNote } from "./screen-line.js";
import { settledNote } from "./trigger-results.js";

/** The text `run` prints: pass rates, errors, trigger scores, cost (and what the store saved), gates and the report. */
export function pipelineSummaryLines(result: PipelineResult, store: StoreNote = {}): string[] {
  const lines: string[] = [];
  if (result.simulated)
    lines.push(
      "SIMULATED: skillgym sim stood in for the model; these results test the suite, not the skill.",
    );
  if (result.simulated && result.simScript === null && result.evals) lines.push(noSimScriptNotice);
  if (result.benchmark) lines.push(passRatesLine(result.benchmark), ...verdictLines(result.benchmark));
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
    const settled = result.triggers?.cancelled
      ? undefined
      : result.triggers && settledNote(result.triggers.results);
    if (settled) lines.push(settled);
    const screened = result.triggers && screenNote(result.triggers.results);
    if (screened) lines.push(screened);
  }
  for (const line of [
    rateLimitLine("eval runs", result.evals?.rateLimits),
    rateLimitLine("trigger runs", result.triggers?.rateLimits),
  ])
    if (line) lines.push(line);
  if (result.budgetExhausted) lines.push("stopped scheduling runs: --max-cost reached");
  lines.push(costLine(result, store));
  for (const gate of result.gates)
    lines.push(`gate ${gate.name}: ${gate.passed ? "passed" : "FAILED"} (${gate.message})`);
  if (result.reportFile) lines.push(`report: ${result.reportFile}`);
  return lines;
}
