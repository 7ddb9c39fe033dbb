import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Benchmark } from "../contracts/benchmark.js";
import type { TriggerResults } from "../contracts/trigger-results.js";
import { escapeHtml as e } from "./escape.js";
import { type IterationView, type ReportEval, readIterationView } from "./read-iteration.js";

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}
.pass{color:#1a7f37}.fail{color:#c0392b}.err{color:#9a6700}.banner{background:#fff3cd;border:1px solid #e0c36b;padding:.5rem 1rem}
details{margin:.3rem 0}code,pre{background:#f6f8fa;white-space:pre-wrap}`;

const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? "—" : `${(x * 100).toFixed(0)}%`;
const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(2)}`;

function benchmarkSection(b: Benchmark): string {
  const rows = Object.entries(b.run_summary)
    .filter(([name]) => name !== "delta")
    .map(([name, s]) => {
      const summary = s as {
        pass_rate?: { mean: number; stddev: number };
        time_seconds?: { mean: number };
        tokens?: { mean: number };
      };
      return `<tr><td>${e(name)}</td><td>${pct(summary.pass_rate?.mean)} ± ${pct(summary.pass_rate?.stddev)}</td><td>${e(summary.time_seconds?.mean?.toFixed(1) ?? "—")}</td><td>${e(Math.round(summary.tokens?.mean ?? 0))}</td></tr>`;
    })
    .join("");
  const delta = b.statistics?.delta_pass_rate;
  const said = delta
    ? delta.distinguishable
      ? `${signed(delta.estimate)} (95% CI ${signed(delta.ci_low)} to ${signed(delta.ci_high)})`
      : `${signed(delta.estimate)} — not distinguishable from noise (95% CI ${signed(delta.ci_low)} to ${signed(delta.ci_high)})`
    : e(b.run_summary.delta?.pass_rate ?? "no baseline");
  const notes = (b.notes ?? []).map((n) => `<li>${e(n)}</li>`).join("");
  return `<h2>Benchmark</h2><table><tr><th>configuration</th><th>pass rate</th><th>time s</th><th>tokens</th></tr>${rows}</table>
<p><b>Pass-rate delta (with skill − baseline):</b> ${e(said)}</p>${notes ? `<ul>${notes}</ul>` : ""}`;
}

function triggersSection(t: TriggerResults): string {
  const rows = t.results
    .map((r) => {
      const verdict =
        r.pass === null
          ? '<span class="err">error</span>'
          : r.pass
            ? '<span class="pass">pass</span>'
            : '<span class="fail">fail</span>';
      const stolen = r.stolen_by
        ? Object.entries(r.stolen_by)
            .map(([s, n]) => `${s}×${n}`)
            .join(", ")
        : "";
      return `<tr><td>${verdict}</td><td>${e(r.query)}</td><td>${r.should_trigger ? "yes" : "no"}</td><td>${r.triggers}/${r.runs - r.errors}</td><td>${r.errors}</td><td>${e(stolen)}</td></tr>`;
    })
    .join("");
  const s = t.summary;
  return `<h2>Triggers</h2><p>${s.passed}/${s.total} passed, ${s.failed} failed, ${s.errors} errored — precision ${pct(s.precision)}, recall ${pct(s.recall)}, F1 ${pct(s.f1)}, accuracy ${pct(s.accuracy)}</p>
<table><tr><th></th><th>query</th><th>should trigger</th><th>triggered</th><th>errors</th><th>loaded instead</th></tr>${rows}</table>`;
}

function evalSection(ev: ReportEval): string {
  const runs = ev.runs
    .map((run) => {
      const head = `${e(run.configuration)} run ${run.runNumber}`;
      if (run.status && run.status.outcome !== "success") {
        return `<details><summary class="err">${head}: ${e(run.status.outcome)} — ${e(run.status.error ?? "")}</summary></details>`;
      }
      if (!run.grading) return `<details><summary>${head}: not graded</summary></details>`;
      const g = run.grading;
      const items = g.expectations
        .map(
          (x) =>
            `<li class="${x.passed ? "pass" : "fail"}">${x.passed ? "PASS" : "FAIL"} ${e(x.text)}<br><code>${e(x.evidence)}</code></li>`,
        )
        .join("");
      return `<details><summary>${head}: ${g.summary.passed}/${g.summary.total} (${pct(g.summary.pass_rate)})</summary><ul>${items}</ul></details>`;
    })
    .join("");
  const title = ev.metadata ? `${ev.metadata.eval_name}` : ev.dir;
  return `<h3>${e(title)}</h3>${ev.metadata ? `<pre>${e(ev.metadata.prompt)}</pre>` : ""}${runs}`;
}

/** A single self-contained HTML file over one iteration: benchmark, triggers, and every run's grades with evidence. */
export function renderStaticReport(view: IterationView, skillName: string): string {
  const simulated = view.benchmark?.metadata.simulated || view.triggers?.simulated;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>skillgym — ${e(skillName)}</title><style>${STYLE}</style></head><body>
<h1>skillgym report — ${e(skillName)}</h1><p>${e(view.dir)}</p>
${simulated ? '<p class="banner">SIMULATED: these results come from skillgym sim, a scripted stand-in, not a model.</p>' : ""}
${view.benchmark ? benchmarkSection(view.benchmark) : ""}${view.triggers ? triggersSection(view.triggers) : ""}
${view.evals.length ? `<h2>Runs</h2>${view.evals.map(evalSection).join("")}` : ""}
</body></html>
`;
}

export async function writeStaticReport(iterationDir: string, skillName: string): Promise<string> {
  const file = join(iterationDir, "report.html");
  await writeFile(file, renderStaticReport(await readIterationView(iterationDir), skillName), "utf8");
  return file;
}
