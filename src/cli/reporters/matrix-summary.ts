import { matrixCells, matrixHeader } from "../../bench/index.js";
import type { AgentMatrix } from "../../contracts/matrix.js";
import type { AgentsPipelineResult } from "../../pipeline/index.js";
import { noSimScriptNotice } from "../../sim/index.js";
import { costLine, type StoreNote } from "./cost-line.js";
import { rateLimitLine } from "./rate-limit-line.js";
import { settledNote } from "./trigger-results.js";

// Columns padded to their widest cell; trimming the line leaves the last (a note) ragged.
function textTable(rows: readonly (readonly string[])[]): string[] {
  // Stryker disable next-line StringLiteral: equivalent, every row has a cell for each header column
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd(),
  );
}

/** The matrix as an indented text table. */
export function matrixLines(matrix: AgentMatrix): string[] {
  const header = matrixHeader.map((h) => h.replace("Trigger ", "trig. "));
  return textTable([header, ...matrix.agents.map(matrixCells)]).map((l) => `  ${l}`);
}

// What the parts of the iteration are: agents, the models of one agent (`--model a,b`), or both.
function partsNoun(parts: AgentsPipelineResult["parts"]): string {
  const models = new Set(parts.map((p) => p.model)).size > 1;
  const agents = new Set(parts.map((p) => p.agent)).size > 1;
  return models && agents ? "parts" : models ? "models" : "agents";
}

/** The text `run --agent a,b,…` prints: the matrix, errors per agent, cost and store savings per agent, gates and the report. */
export function matrixSummaryLines(result: AgentsPipelineResult, store: StoreNote = {}): string[] {
  const lines: string[] = [];
  if (result.simulated)
    lines.push(
      "SIMULATED: skillgym sim stood in for the model; these results test the suite, not the skill.",
    );
  if (result.parts.some((p) => p.result?.simulated && p.result.simScript === null && p.result.evals))
    lines.push(noSimScriptNotice);
  const noun = partsNoun(result.parts);
  lines.push(`${noun} of ${result.iterationDir}:`, ...matrixLines(result.matrix));
  for (const part of result.parts) {
    const records = part.result?.evals?.records ?? [];
    const errors = records.filter((r) => r.outcome !== "success" && r.outcome !== "cancelled").length;
    if (errors > 0) lines.push(`${part.name}: ${errors} eval runs errored (left out of the pass rates)`);
    const triggers = part.result?.triggers;
    const settled = triggers && !triggers.cancelled ? settledNote(triggers.results) : undefined;
    if (settled) lines.push(`${part.name}: ${settled}`);
    for (const line of [
      rateLimitLine(`${part.name} eval runs`, part.result?.evals?.rateLimits),
      rateLimitLine(`${part.name} trigger runs`, triggers?.rateLimits),
    ])
      if (line) lines.push(line);
  }
  if (result.cancelled) lines.push("cancelled: run again to finish the iteration");
  if (result.budgetExhausted) lines.push("stopped scheduling runs: --max-cost reached");
  // Each agent's spend and what the store saved it, as a run of one agent says it; then the total.
  for (const part of result.parts)
    if (part.result) lines.push(costLine(part.result, store, `cost [${part.name}]`));
  lines.push(`cost: $${result.costUsd.toFixed(4)} (all ${noun})`);
  for (const gate of result.gates)
    lines.push(
      `gate ${gate.name}${gate.agent ? ` [${gate.agent}]` : ""}: ${gate.passed ? "passed" : "FAILED"} (${gate.message})`,
    );
  lines.push(`matrix: ${result.matrixFile}`);
  lines.push(`report: ${result.reportFile}`);
  return lines;
}
