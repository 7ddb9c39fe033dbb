import type { CatalogResults } from "../contracts/catalog.js";

const pct = (v: number | null) => (v === null ? "–" : `${Math.round(v * 100)}%`);
const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

/** catalog.md: per skill scores, the confusion matrix, the pairs that take each other's queries, and notes. */
export function renderCatalogMarkdown(results: CatalogResults): string {
  const lines = [
    `# Catalog: ${results.skills.length} skills`,
    "",
    `Agent ${results.agent.name}${results.simulated ? " (simulated: skillgym sim, not a model)" : ""}, ${results.runs_per_query} run(s) per query, ${results.runs.length} runs, ${results.errors} errors.`,
    "",
    "| Skill | Queries | Runs | Precision | Recall | F1 |",
    "|---|---|---|---|---|---|",
    ...results.skills.map(
      (s) =>
        `| ${cell(s.name)} | ${s.queries} | ${s.runs} | ${pct(s.precision)} | ${pct(s.recall)} | ${pct(s.f1)} |`,
    ),
    "",
    "## Confusion (rows: whose query; columns: the skill that fired first)",
    "",
  ];
  const columns = [...results.skills.map((s) => s.name), "none"];
  lines.push(
    `| Query of | ${columns.map(cell).join(" | ")} |`,
    `|---|${columns.map(() => "---").join("|")}|`,
  );
  for (const [row, cells] of Object.entries(results.confusion))
    lines.push(`| ${cell(row)} | ${columns.map((c) => String(cells[c] ?? 0)).join(" | ")} |`);
  lines.push("", "## Skills that take each other's queries", "");
  if (results.pairs.length === 0) lines.push("None: no skill took another's should-trigger query.");
  for (const pair of results.pairs) {
    lines.push(`- **${pair.skills[0]} ↔ ${pair.skills[1]}**: ${pair.runs} run(s)`);
    for (const t of pair.taken)
      lines.push(
        `  - ${t.fired} took ${t.runs} run(s) of ${t.owner}'s queries, e.g. ${t.queries.map((q) => `“${q}”`).join(", ")}`,
      );
  }
  if (results.notes.length > 0) lines.push("", "## Notes", "", ...results.notes.map((n) => `- ${n}`));
  return `${lines.join("\n")}\n`;
}
