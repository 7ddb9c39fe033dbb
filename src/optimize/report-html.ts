import { optimizeExitText } from "../contracts/exit-reasons.js";
import type {
  OptimizeIteration,
  OptimizeResults,
  OptimizeSubsetScore,
} from "../contracts/optimize-results.js";
import type { TriggerQueryResult } from "../contracts/trigger-results.js";
import { replayDecided } from "./screen.js";

// Descriptions come from a model and queries from users: every text is escaped.
function esc(text: unknown): string {
  // Stryker disable next-line StringLiteral: equivalent, no caller passes undefined or null
  return String(text ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? "—" : `${Math.round(x * 100)}%`;

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}
table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top;text-align:left}
.pass{background:#e3f5e1}.fail{background:#fbe3e1}.err{background:#eee}.best{outline:2px solid #2a7}
.banner{background:#fff4cc;border:1px solid #e0c200;padding:8px;margin-bottom:12px}.desc{max-width:560px}
.muted{color:#777}svg{background:#fafafa;border:1px solid #ddd}`;

function scoreCell(subset: OptimizeSubsetScore | null): string {
  if (!subset) return "<td>—</td>";
  return `<td>${pct(subset.score)} <span class="muted">(${subset.summary.passed}/${subset.summary.total})</span></td>`;
}

function iterationRow(it: OptimizeIteration, best: number | null): string {
  const notes = [
    it.repeat_of !== undefined ? `repeats iteration ${it.repeat_of}; not run again` : "",
    it.improver?.problems.length ? `re-asked: ${it.improver.problems.join("; ")}` : "",
    it.improver?.error ?? "",
    it.iteration === 0 ? "the original description: the starting point" : "",
    it.reused_runs ? `${it.reused_runs} runs reused by --resume` : "",
    it.replay ? replayDecided(it.replay) : "",
    it.status === "interrupted" ? "interrupted" : "",
  ].filter(Boolean);
  return `<tr class="${it.iteration === best ? "best" : ""}"><td>${it.iteration}${it.iteration === best ? " ★" : ""}</td>
<td class="desc">${esc(it.description)}</td>${scoreCell(it.train)}${scoreCell(it.test)}
<td>$${it.cost_usd.toFixed(4)}</td><td>${esc(notes.join(" · "))}</td></tr>`;
}

function chart(iterations: readonly OptimizeIteration[]): string {
  const width = 420;
  const height = 160;
  const n = Math.max(1, iterations.length - 1);
  const line = (side: "train" | "test") =>
    iterations
      .flatMap((it, i) => {
        const s = it[side]?.score;
        return s === null || s === undefined
          ? []
          : [`${(20 + (i / n) * (width - 40)).toFixed(1)},${(height - 20 - s * (height - 40)).toFixed(1)}`];
      })
      .join(" ");
  return `<svg width="${width}" height="${height}" role="img" aria-label="train and test score by iteration">
<polyline fill="none" stroke="#999" stroke-dasharray="4 3" stroke-width="2" points="${line("train")}"/>
<polyline fill="none" stroke="#2a7" stroke-width="2" points="${line("test")}"/>
<text x="20" y="14" font-size="11">test (solid), train (dashed), 0–100% by iteration</text></svg>`;
}

function rateCell(r: TriggerQueryResult | undefined): string {
  if (!r) return "<td>—</td>";
  const scored = r.runs - r.errors;
  const cls = r.pass === null ? "err" : r.pass ? "pass" : "fail";
  return `<td class="${cls}">${scored === 0 ? "error" : `${r.triggers}/${scored}`}</td>`;
}

function queryTable(results: OptimizeResults, side: "train" | "test"): string {
  const header = results.iterations.map((it) => `<th>${it.iteration}</th>`).join("");
  const rows = results.split[side].map((q, i) => {
    const cells = results.iterations.map((it) => rateCell(it[side]?.results[i])).join("");
    return `<tr><td>${esc(q.query)}</td><td>${q.should_trigger ? "yes" : "no"}</td>${cells}</tr>`;
  });
  return `<table><tr><th>${side} query</th><th>should trigger</th>${header}</tr>${rows.join("\n")}</table>`;
}

/** The optimizer's page; while it runs the page reloads itself every 5 seconds. */
export function renderOptimizeReport(results: OptimizeResults): string {
  const running = results.status === "running";
  const best = results.best_iteration;
  const banner = results.simulated
    ? `<div class="banner">SIMULATED: skillgym sim stood in for the agent and the improver; these scores test the harness, not the description.</div>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">${running ? '<meta http-equiv="refresh" content="5">' : ""}
<title>skillgym optimize: ${esc(results.skill_name)}</title><style>${STYLE}</style></head><body>
${banner}<h1>Description optimizer: ${esc(results.skill_name)}</h1>
<p>Status: <b>${esc(results.status)}</b>${running ? " (this page refreshes every 5 s)" : ""}; stopped because: ${esc(optimizeExitText[results.exit_reason])}${results.error ? ` (${esc(results.error)})` : ""}.
${results.resumed_at?.length ? `Resumed ${results.resumed_at.length}× (last ${esc(results.resumed_at.at(-1))}). ` : ""}Cost $${results.cost_usd.toFixed(4)} (estimated at most $${results.estimate.cost_usd.toFixed(2)} for ${results.estimate.trigger_runs} trigger runs).</p>
<p>Score: ${esc(results.score_metric)}. Best = highest test score, ties to the earliest iteration.
Train ${results.split.train.length} queries, test ${results.split.test.length} (held out: the improver never sees them).
${results.screen ? (results.screen.kind === "replay" ? "Train runs screened by replay (the agent's captured first request with each query; the agent made the runs it left open); test runs are the agent's." : `Replay off (${esc(results.screen.off ?? "--screen none")}): the agent made every run.`) : ""}</p>
${results.test_gain ? `<p>Best vs original on test: <b>${esc(results.test_gain.note)}</b></p>` : ""}
<table><tr><th>original</th><td class="desc">${esc(results.original_description)}</td></tr>
<tr><th>best${best !== null ? ` (iteration ${best})` : ""}</th><td class="desc">${esc(results.best_description)}</td></tr>
<tr><th>final</th><td class="desc">${esc(results.final_description)}</td></tr></table>
${chart(results.iterations)}
<h2>Iterations</h2>
<table><tr><th>#</th><th>description</th><th>train</th><th>test</th><th>cost</th><th>notes</th></tr>
${results.iterations.map((it) => iterationRow(it, best)).join("\n")}</table>
<h2>Per query (triggered runs / scored runs)</h2>
${queryTable(results, "train")}${queryTable(results, "test")}
</body></html>
`;
}
