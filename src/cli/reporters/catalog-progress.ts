import type { CatalogReporter } from "../../catalog/index.js";
import type { CatalogResults } from "../../contracts/catalog.js";
import type { Io } from "../io.js";

/** A line per finished catalog run: whose query, and which skill fired first. */
export function catalogReporter(io: Io): CatalogReporter {
  let total = 0;
  let done = 0;
  return {
    onPlan(info) {
      total = info.total;
      const mode = info.simulated ? " [SIMULATED: skillgym sim answers, not a model]" : "";
      const part = info.shard ? ` (shard ${info.shard.index}/${info.shard.count})` : "";
      io.err(
        `${info.resumed ? "resuming" : "writing"} ${info.catalogDir}: ${info.skills} skills installed together, ${info.total} runs${part}${mode}\n`,
      );
    },
    onRunEnd(run) {
      done++;
      const what = run.error !== undefined ? `error (${run.outcome})` : `fired ${run.fired}`;
      const reused = run.reused_from ? " (reused)" : "";
      io.err(`[${done}/${total}] ${run.dir}: ${what}${reused}\n`);
    },
  };
}

const pct = (v: number | null) => (v === null ? "–" : `${Math.round(v * 100)}%`);

/** The summary printed when a catalog finishes. */
export function formatCatalogResults(results: CatalogResults): string {
  const lines = results.skills.map(
    (s) =>
      `  ${s.name}: ${s.queries === 0 ? "no queries of its own (competitor only)" : `precision ${pct(s.precision)}, recall ${pct(s.recall)}, F1 ${pct(s.f1)}`}`,
  );
  const top = results.pairs[0];
  if (top) lines.push(`  most confused: ${top.skills[0]} ↔ ${top.skills[1]} (${top.runs} runs)`);
  for (const note of results.notes) lines.push(`  note: ${note}`);
  return `${lines.join("\n")}\n`;
}
