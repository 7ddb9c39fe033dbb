import type { TriggerResults } from "../contracts/trigger-results.js";

/** A CI gate's verdict, as `run` and `merge` evaluate it. */
export interface GateVerdict {
  name: string;
  agent?: string;
  passed: boolean;
  message: string;
}

export interface SummaryInput {
  skillName: string;
  iterationDir: string;
  /** benchmark.md's text, when the iteration ran evals. */
  benchmarkMarkdown?: string;
  triggers?: TriggerResults;
  gates: readonly GateVerdict[];
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/** The markdown appended to `$GITHUB_STEP_SUMMARY`: gates, the benchmark table, the failed queries. */
export function stepSummary(input: SummaryInput): string {
  const lines = [`## skillgym: ${input.skillName}`, "", `Iteration: \`${input.iterationDir}\``, ""];
  for (const g of input.gates)
    lines.push(`- ${g.passed ? "✅" : "❌"} gate ${g.name}${g.agent ? ` (${g.agent})` : ""}: ${g.message}`);
  if (input.gates.length > 0) lines.push("");
  if (input.benchmarkMarkdown) lines.push(input.benchmarkMarkdown.trim(), "");
  if (input.triggers) {
    const s = input.triggers.summary;
    const accuracy = s.accuracy === null ? "unknown" : `${(s.accuracy * 100).toFixed(1)}%`;
    lines.push(`### Triggers: ${s.passed}/${s.total} queries passed, accuracy ${accuracy}`, "");
    const failed = input.triggers.results.filter((r) => r.pass !== true);
    if (failed.length > 0) {
      lines.push("| query | should trigger | rate | runs |", "|---|---|---|---|");
      for (const r of failed)
        lines.push(
          `| ${cell(r.query)} | ${r.should_trigger ? "yes" : "no"} | ${r.trigger_rate === null ? "errored" : r.trigger_rate.toFixed(2)} | ${r.runs} |`,
        );
      lines.push("");
    }
  }
  return `${lines.join("\n")}\n`;
}

// Workflow commands end at a newline and read % specially: both escaped as the runner expects.
function command(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** `::error` for each failed gate, `::warning` for each trigger query that failed. */
export function annotations(gates: readonly GateVerdict[], triggers?: TriggerResults): string[] {
  const lines = gates
    .filter((g) => !g.passed)
    .map(
      (g) => `::error title=skillgym gate ${g.name}${g.agent ? ` (${g.agent})` : ""}::${command(g.message)}`,
    );
  for (const r of triggers?.results ?? [])
    if (r.pass === false)
      lines.push(
        `::warning title=skillgym trigger query::${command(`${r.should_trigger ? "should trigger" : "should not trigger"}: ${r.query}`)}`,
      );
  return lines;
}
