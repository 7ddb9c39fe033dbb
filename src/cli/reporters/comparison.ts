import type { WrittenComparison } from "../../compare/index.js";

/** A comparison as `--json` prints it. */
export function comparisonJson(written: WrittenComparison) {
  return {
    winner: written.comparison.winner,
    winner_run_dir: written.winnerRunDir,
    mapping: { A: written.mapping.A, B: written.mapping.B },
    reasoning: written.comparison.reasoning,
    ...(written.comparison.position_bias !== undefined
      ? { position_bias: written.comparison.position_bias }
      : {}),
    comparison_path: written.comparisonPath,
    mapping_path: written.mappingPath,
    analysis_path: written.analysisPath ?? null,
    ...(written.analysisSkipped ? { analysis_skipped: written.analysisSkipped } : {}),
    judge_model: written.judgeModel,
    simulated: written.simulated,
    cost_usd: Number(written.costUsd.toFixed(6)),
  };
}

/** The verdict, the blind labels, the reasoning and the files written. */
export function comparisonText(written: WrittenComparison): string {
  const { comparison, mapping } = written;
  const verdict =
    comparison.winner === "TIE"
      ? comparison.position_bias
        ? "tie (position bias: the judge's winner changed with the order the outputs were shown in)"
        : "tie"
      : `${comparison.winner} wins: ${written.winnerRunDir ?? ""}`;
  const note = written.simulated ? " (simulated: skillgym sim stood in for the judge)" : "";
  const lines = [
    `${verdict}${note}`,
    `  A = ${mapping.A}`,
    `  B = ${mapping.B}`,
    `  ${comparison.reasoning}`,
    `  comparison: ${written.comparisonPath}`,
    `  labels: ${written.mappingPath}`,
  ];
  if (written.analysisPath) lines.push(`  analysis: ${written.analysisPath}`);
  else if (written.analysisSkipped === "tie") lines.push("  analysis: none (a tie has no winner to explain)");
  lines.push(`  judge: ${written.judgeModel}, $${written.costUsd.toFixed(4)}`);
  return `${lines.join("\n")}\n`;
}
