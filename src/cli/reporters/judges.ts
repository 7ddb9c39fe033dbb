import type { Agreement, JudgesReport } from "../../contracts/judges.js";

const pct = (x: number | null) => (x === null ? "n/a" : `${(x * 100).toFixed(1)}%`);
const kappaText = (a: Agreement) =>
  a.kappa === null
    ? "κ n/a"
    : `κ ${a.kappa.toFixed(2)}${a.kappa_ci ? ` (95% CI ${a.kappa_ci.low.toFixed(2)} to ${a.kappa_ci.high.toFixed(2)})` : ""}`;

/** judges.json in a few lines: pairs, humans, flips, ambiguous expectations and the gate. */
export function judgesText(report: JudgesReport, path: string): string {
  const lines: string[] = [];
  lines.push(
    `${report.runs} runs re-graded by ${report.judges.map((j) => j.id).join(", ")}${report.repeat > 1 ? `, ${report.repeat} times each` : ""}${report.simulated ? " (simulated)" : ""}`,
  );
  for (const p of report.pairs)
    lines.push(
      `  ${p.a} vs ${p.b}: ${pct(p.percent_agreement)} agree, ${kappaText(p)}, over ${p.n} verdicts; ${p.disagreements.length} disagreements`,
    );
  if (report.humans.length === 0)
    lines.push("  no grade marked right or wrong in feedback.json: no human agreement");
  for (const h of report.humans)
    lines.push(
      `  ${h.judge} vs reviewers: ${pct(h.percent_agreement)} agree, ${kappaText(h)}, over ${h.n} marked grades`,
    );
  for (const s of report.self_consistency)
    lines.push(`  ${s.judge} asked again: ${s.flips} of ${s.n} verdicts flipped (${pct(s.flip_rate)})`);
  for (const a of report.ambiguous)
    lines.push(
      `  ambiguous: "${a.text}" (eval ${String(a.eval_id)}): ${a.reasons.join("; ")}${a.suggested_rewording ? `\n    consider: "${a.suggested_rewording}"` : ""}`,
    );
  if (report.position_bias)
    lines.push(
      `  blind comparisons in both orders: ${report.position_bias.biased} of ${report.position_bias.comparisons} changed their winner with the order (${pct(report.position_bias.rate)}), each then a tie`,
    );
  for (const j of report.judges)
    if (j.errors.length > 0)
      lines.push(`  ${j.id} failed on ${j.errors.length} runs, e.g. ${j.errors[0]?.error}`);
  if (report.gate)
    lines.push(`${report.gate.passed ? "PASS" : "FAIL"} min-judge-agreement: ${report.gate.message}`);
  lines.push(`judges.json: ${path}`);
  return `${lines.join("\n")}\n`;
}
