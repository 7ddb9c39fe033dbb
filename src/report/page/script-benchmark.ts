// Browser code: the Benchmark tab (configuration summary, delta with its interval, per-eval table,
// per-assertion pass grid, analyzer notes). The grid of each eval is built only when opened.
export const scriptBenchmark = `
function baselineOf(b) {
  if (b.metadata.baseline_configuration) return b.metadata.baseline_configuration;
  return b.configurations.filter(function (c) { return c !== "with_skill"; })[0] || null;
}

function summaryTable(b) {
  const rows = [];
  for (const name of Object.keys(b.run_summary)) {
    if (name === "delta") continue;
    const s = b.run_summary[name];
    if (!s || !s.pass_rate) continue;
    rows.push(h("tr", null, [
      h("td", null, configurationBadge(name)),
      h("td", { class: "num", text: meanSd(s.pass_rate, pct) }),
      h("td", { class: "num", text: meanSd(s.time_seconds, function (x) { return fixed(x, 1); }) }),
      h("td", { class: "num", text: meanSd(s.tokens, thousands) }),
    ]));
  }
  const d = b.run_summary.delta;
  if (d) {
    rows.push(h("tr", null, [
      h("td", { text: "delta (with_skill − " + (baselineOf(b) || "baseline") + ")" }),
      h("td", { class: "num", text: d.pass_rate }),
      h("td", { class: "num", text: d.time_seconds }),
      h("td", { class: "num", text: d.tokens }),
    ]));
  }
  return h("table", { class: "data summary-table" }, [
    h("thead", null, h("tr", null, [
      h("th", { text: "configuration" }),
      h("th", { class: "num", text: "pass rate (mean ± sd)" }),
      h("th", { class: "num", text: "time s (mean ± sd)" }),
      h("th", { class: "num", text: "tokens (mean ± sd)" }),
    ])),
    h("tbody", null, rows),
  ]);
}

function deltaNote(b) {
  const d = b.delta_pass_rate;
  if (!d) return empty("No paired interval for the delta (no baseline, or too few graded runs).");
  return h("p", { class: "delta-note" }, [
    h("strong", { text: "Pass-rate delta, with skill − " + (baselineOf(b) || "baseline") + ": " }),
    ciText(d) + (d.pairs !== undefined ? ", " + d.pairs + " pairs" : "") + ". ",
    h("span", {
      class: "score " + (d.distinguishable ? (d.estimate >= 0 ? "good" : "bad") : ""),
      text: d.distinguishable ? "Distinguishable from noise." : "Not distinguishable from noise: the interval includes zero.",
    }),
    b.method ? h("div", { class: "muted", text: "Method: " + b.method }) : null,
    b.verdict ? h("div", { class: "verdict" }, [h("strong", { text: "Verdict: " }), verdictText(b.verdict)]) : null,
    b.redundant ? h("div", { class: "verdict redundant" }, [
      h("strong", { text: "Redundant on this model: " }),
      "the baseline already passes " + pct(b.redundant.baseline_pass_rate) + " and the skill has no effect on any eval" +
        (redundancyCost(b.redundant) ? "; it costs " + redundancyCost(b.redundant) + " a run." : "."),
    ]) : null,
  ]);
}

function redundancyCost(r) {
  const costs = [];
  if (r.tokens_delta !== undefined) costs.push(r.tokens_delta + " tokens");
  if (r.time_seconds_delta !== undefined) costs.push(r.time_seconds_delta + " s");
  return costs.join(" and ");
}

function verdictText(v) {
  const floor = "±" + v.floor.toFixed(2);
  if (v.verdict === "inconclusive")
    return "inconclusive at " + floor + (v.runs_to_decide ? " (about " + v.runs_to_decide + " runs per configuration would likely decide it)" : "");
  return v.verdict === "no effect" ? "no effect (within " + floor + ")" : v.verdict + " (beyond " + floor + ")";
}

function perEvalTable(b) {
  const head = [h("th", { text: "eval" })];
  for (const c of b.configurations) head.push(h("th", { class: "num" }, configurationBadge(c)));
  head.push(h("th", { class: "num", text: "delta (CI)" }), h("th", { text: "verdict" }), h("th", { text: "flaky" }));
  const rows = b.evals.map(function (e) {
    const cells = [h("td", { text: e.eval_name })];
    for (const c of b.configurations) {
      const cell = own(e.configurations, c);
      cells.push(h("td", {
        class: "num",
        text: cell ? pct(cell.pass_rate) + " (" + cell.graded + " run" + (cell.graded === 1 ? "" : "s") + (cell.errors ? ", " + cell.errors + " errored" : "") + ")" : "—",
      }));
    }
    cells.push(
      h("td", { class: "num", text: ciText(e.delta_pass_rate) }),
      h("td", { class: "verdict-cell", text: e.verdict ? e.verdict.verdict : "" }),
      h("td", { text: e.flaky ? "flaky" : "" }),
    );
    return h("tr", null, cells);
  });
  return h("table", { class: "data per-eval" }, [h("thead", null, h("tr", null, head)), h("tbody", null, rows)]);
}

function gridCells(chars, configuration) {
  const box = h("span", { class: "grid-cells" });
  for (let i = 0; i < chars.length; i++) {
    const c = chars.charAt(i);
    const label = configuration + " run " + (i + 1) + ": " + (c === "1" ? "pass" : c === "0" ? "fail" : "no result");
    box.append(h("span", { class: "cell " + (c === "1" ? "p" : c === "0" ? "f" : "n"), title: label, "aria-label": label }));
  }
  return box;
}

function gridTable(b, group) {
  const head = [h("th", { text: "assertion" })];
  for (const c of b.configurations) head.push(h("th", null, configurationBadge(c)));
  const rows = group.assertions.map(function (a) {
    const cells = [h("td", { text: a.text })];
    for (const c of b.configurations) cells.push(h("td", null, gridCells(own(a.cells, c) || "", c)));
    return h("tr", null, cells);
  });
  return h("table", { class: "data" }, [h("thead", null, h("tr", null, head)), h("tbody", null, rows)]);
}

function assertionGrids(b) {
  if (!b.grid.length) return empty("benchmark.json lists no expectations per run.");
  return b.grid.map(function (group, i) {
    const details = h("details", { class: "eval-grid" }, h("summary", { text: group.eval_name + " — " + group.assertions.length + " assertions" }));
    let built = false;
    const build = function () {
      if (built || !details.open) return;
      built = true;
      details.append(gridTable(b, group));
    };
    details.addEventListener("toggle", build);
    if (i === 0) {
      details.open = true;
      build();
    }
    return details;
  });
}

function renderBenchmark(panel) {
  const b = state.iteration.benchmark;
  panel.replaceChildren();
  if (!b) {
    panel.append(h("h2", { text: "Benchmark" }), empty("No benchmark.json in " + state.iteration.name + ": run skillgym bench on it."));
    return;
  }
  const meta = b.metadata;
  const facts = [
    meta.skill_name,
    meta.executor_model ? "agent " + meta.executor_model : null,
    meta.judge_model ? "judge " + meta.judge_model : null,
    meta.runs_per_configuration + " run" + (meta.runs_per_configuration === 1 ? "" : "s") + " per configuration",
    meta.evals_run.length + " evals",
    meta.timestamp,
  ].filter(Boolean).join(" · ");
  append(panel, [
    h("h2", { text: "Benchmark — " + state.iteration.name }),
    h("p", { class: "muted", text: facts }),
    summaryTable(b),
    deltaNote(b),
    h("h3", { text: "Per eval" }),
    perEvalTable(b),
    h("h3", { text: "Assertions across configurations and runs" }),
    h("p", { class: "muted", text: "One square per run: green passed, red failed, grey no result." }),
    assertionGrids(b),
    h("h3", { text: "Analyzer notes" }),
    b.notes.length ? h("ul", { class: "notes" }, b.notes.map(function (n) { return h("li", { text: n }); })) : empty("No notes."),
  ]);
}
`;
