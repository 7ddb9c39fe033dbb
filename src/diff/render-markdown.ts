import { formatSigned, percent, quoted } from "../bench/labels.js";
import { escapeCell } from "../bench/render-markdown.js";
import type { DifferenceInterval, DiffPart, DiffReport, EvalDiff } from "../contracts/diff.js";

function interval(d: DifferenceInterval | null): string {
  if (!d) return "no interval";
  return `${formatSigned(d.estimate, 2)} (${Math.round(d.confidence * 100)}% CI ${formatSigned(d.ci_low, 2)} to ${formatSigned(d.ci_high, 2)})`;
}

const rate = (r: number | null) => (r === null ? "—" : percent(r));

function changeText(change: string, runs: number | undefined): string {
  return change === "inconclusive" && runs !== undefined
    ? `inconclusive (~${runs} runs a side would decide)`
    : change;
}

function evalRow(e: EvalDiff): string {
  const name =
    e.eval_name && e.eval_name !== `eval-${e.eval_id}` ? `${e.eval_id} (${e.eval_name})` : String(e.eval_id);
  const cells = [
    name,
    `${rate(e.a_pass_rate)} (${e.a_runs})`,
    `${rate(e.b_pass_rate)} (${e.b_runs})`,
    interval(e.difference),
    changeText(e.change, e.runs_to_decide),
  ];
  return `| ${cells.map(escapeCell).join(" | ")} |`;
}

function partLines(part: DiffPart, floor: number): string[] {
  const lines: string[] = [];
  if (part.agent) lines.push(`## Agent: ${part.agent}`, "");
  if (part.overall)
    lines.push(
      `**The skill over all evals:** ${changeText(part.overall.change, part.overall.runs_to_decide)} — ${interval(part.overall.difference)} at a floor of ±${floor.toFixed(2)}.`,
      "",
    );
  if (part.evals.length > 0)
    lines.push(
      "| Eval | A with_skill (runs) | B with_skill (runs) | B − A | Change |",
      "|---|---|---|---|---|",
      ...part.evals.map(evalRow),
      "",
    );
  if (part.only_in_a.length > 0)
    lines.push(`Evals only in A (not compared): ${part.only_in_a.join(", ")}`, "");
  if (part.only_in_b.length > 0)
    lines.push(`Evals only in B (not compared): ${part.only_in_b.join(", ")}`, "");
  const moved = part.queries.filter((q) => q.change !== "unchanged");
  if (part.queries.length > 0) {
    lines.push(
      `Trigger queries: ${part.queries.length} compared, ${moved.length} changed their verdict or could not be scored.`,
      "",
    );
    if (moved.length > 0)
      lines.push(
        "| Query | Should trigger | A rate | B rate | Change |",
        "|---|---|---|---|---|",
        ...moved.map(
          (q) =>
            `| ${[quoted(q.query, 80), q.should_trigger ? "yes" : "no", rate(q.a_rate), rate(q.b_rate), q.change].map(escapeCell).join(" | ")} |`,
        ),
        "",
      );
  }
  return lines;
}

/** diff.md: what moved beyond the floor from A to B, and what did not. */
export function renderDiffMarkdown(report: DiffReport): string {
  return [
    "# Diff",
    "",
    `- A: ${report.a}`,
    `- B: ${report.b}`,
    `- Effect floor: ±${report.effect_floor.toFixed(2)} (a smaller move is reported as unchanged)`,
    `- Regressions: ${report.regressions}`,
    "",
    ...report.parts.flatMap((p) => partLines(p, report.effect_floor)),
  ].join("\n");
}

/** The regressed evals and queries, one line each, for a CI summary. */
export function regressionLines(report: DiffReport): string[] {
  return report.parts.flatMap((p) => {
    const who = p.agent ? ` (${p.agent})` : "";
    return [
      ...p.evals
        .filter((e) => e.change === "regressed")
        .map((e) => `eval ${e.eval_id}${who} regressed: ${interval(e.difference)}`),
      ...p.queries
        .filter((q) => q.change === "regressed")
        .map(
          (q) =>
            `trigger query ${quoted(q.query, 80)}${who} regressed: rate ${rate(q.a_rate)} → ${rate(q.b_rate)}`,
        ),
    ];
  });
}
