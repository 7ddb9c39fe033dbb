import type { AgentMatrix, AgentMatrixRow } from "../contracts/matrix.js";
import { escapeCell } from "./render-markdown.js";

const pct = (x: number | null) => (x === null ? "n/a" : `${(x * 100).toFixed(0)}%`);
const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(2)}`;

/** The matrix's cells for one agent, as text: the table `run` prints and benchmark.md carries. */
export function matrixCells(row: AgentMatrixRow): string[] {
  const d = row.delta_pass_rate;
  const t = row.triggers;
  return [
    (row.version ? `${row.agent} ${row.version}` : row.agent) + (row.model ? ` · ${row.model}` : ""),
    pct(row.with_skill_pass_rate),
    row.baseline_configuration ? `${pct(row.baseline_pass_rate)} (${row.baseline_configuration})` : "none",
    d
      ? `${signed(d.estimate)} [${signed(d.ci_low)}, ${signed(d.ci_high)}]${d.distinguishable ? "" : " ~"}`
      : "n/a",
    row.redundant ? "redundant" : (row.verdict ?? "n/a"),
    t ? pct(t.precision) : "n/a",
    t ? pct(t.recall) : "n/a",
    t ? pct(t.accuracy) : "n/a",
    `$${row.cost_usd.toFixed(4)}`,
    `${row.wall_seconds.toFixed(1)}s`,
    row.status === "complete" ? "" : row.status.replace("_", " "),
  ];
}

export const matrixHeader = [
  "Agent",
  "With skill",
  "Baseline",
  "Delta [95% CI]",
  "Verdict",
  "Trigger precision",
  "Trigger recall",
  "Trigger accuracy",
  "Cost",
  "Wall time",
  "Note",
] as const;

/** benchmark.md at the root of an iteration that ran several agents. */
export function renderMatrixMarkdown(matrix: AgentMatrix): string {
  const line = (cells: readonly string[]) => `| ${cells.map(escapeCell).join(" | ")} |`;
  const lines = [
    `# Agents — ${matrix.skill_name}`,
    "",
    ...(matrix.simulated
      ? [
          "**SIMULATED:** skillgym sim stood in for the model; these results test the suite, not the skill.",
          "",
        ]
      : []),
    line(matrixHeader),
    `|${matrixHeader.map(() => "---").join("|")}|`,
    ...matrix.agents.map((row) => line(matrixCells(row))),
    "",
    "Delta is with_skill minus the baseline, with its 95% interval (paired bootstrap over evals); `~` marks an interval that includes zero. The verdict holds that interval against the effect floor; redundant: no effect while the baseline already passes.",
    "",
    "Each part's own benchmark:",
    "",
    ...matrix.agents.map((row) => `- [${row.dir}](${row.dir}/benchmark.md)`),
    "",
  ];
  return lines.join("\n");
}
