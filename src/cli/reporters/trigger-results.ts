import type { TriggerResults } from "../../contracts/trigger-results.js";
import { runsSettledAway } from "../../triggers/settle.js";
import { flagSentence } from "../../triggers/side-by-side.js";

const pct = (x: number | null) => (x === null ? "n/a" : `${(x * 100).toFixed(0)}%`);

/** `settled verdicts saved 4 of 12 trigger runs`, or nothing when every query got all its runs. */
export function settledNote(results: TriggerResults): string | undefined {
  const saved = runsSettledAway(results);
  if (saved === 0 || results.runs_per_query === undefined) return undefined;
  return `settled verdicts saved ${saved} of ${results.runs_per_query * results.results.length} trigger runs`;
}

/** A line per query (verdict, trigger rate, who stole it) and the summary line. */
export function formatTriggerResults(results: TriggerResults): string {
  const lines = results.results.map((r) => {
    const verdict = r.pass === null ? "ERROR" : r.pass ? "pass " : "FAIL ";
    const rate = r.trigger_rate === null ? "—" : `${r.triggers}/${r.runs - r.errors}`;
    const stolen = r.stolen_by
      ? `  stolen by ${Object.entries(r.stolen_by)
          .map(([s, n]) => `${s}×${n}`)
          .join(", ")}`
      : "";
    const errors = r.errors > 0 ? `  (${r.errors} errored)` : "";
    const side = r.side_by_side;
    // Side by side: the clean room's rate before the real one, and what the difference means.
    const clean = side
      ? `clean ${side.clean.trigger_rate === null ? "—" : `${side.clean.triggers}/${side.clean.runs - side.clean.errors}`}`.padEnd(
          11,
        ) + " real"
      : "";
    const flag = side?.flag
      ? `  << ${flagSentence(side.flag, r.should_trigger, results.conditions?.project_root !== undefined)}`
      : "";
    return `  ${verdict} ${r.should_trigger ? "should    " : "should not"} trigger ${clean}${rate.padStart(5)}  ${r.query.slice(0, 70)}${errors}${stolen}${flag}`;
  });
  const both = results.side_by_side;
  if (both) {
    const c = both.clean_summary;
    lines.push(
      `clean room: ${c.passed}/${c.total} queries passed, accuracy ${pct(c.accuracy)}; ` +
        `${both.clean_only} pass only in the clean room, ${both.real_only} only under the real conditions (the rest of this summary is the real conditions')`,
    );
  }
  const s = results.summary;
  lines.push(
    `${s.passed}/${s.total} queries passed, ${s.failed} failed, ${s.errors} errored; ` +
      `precision ${pct(s.precision)}, recall ${pct(s.recall)}, F1 ${pct(s.f1)}, accuracy ${pct(s.accuracy)}` +
      (results.simulated ? " (simulated)" : ""),
  );

  return `${lines.join("\n")}\n`;
}
