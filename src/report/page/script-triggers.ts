// Browser code: the Triggers tab (per-query rate against the threshold, errors, stolen_by; precision/recall/F1).
export const scriptTriggers = `
function card(label, value) {
  return h("div", { class: "card" }, [h("div", { class: "label", text: label }), h("div", { class: "value", text: value })]);
}

function rateBar(rate, threshold) {
  const bar = h("span", { class: "rate", title: "rate " + pct(rate) + ", threshold " + pct(threshold) });
  const fill = h("span", { class: "fill" });
  fill.style.width = (typeof rate === "number" ? Math.max(0, Math.min(1, rate)) * 100 : 0) + "%";
  const mark = h("span", { class: "threshold" });
  mark.style.left = "calc(" + Math.max(0, Math.min(1, threshold)) * 100 + "% - 1px)";
  bar.append(fill, mark);
  return bar;
}

function stolenText(stolen) {
  if (!stolen) return "";
  return Object.keys(stolen).map(function (name) { return name + " × " + stolen[name]; }).join(", ");
}

function renderTriggers(panel) {
  const t = state.iteration.triggers;
  panel.replaceChildren();
  if (!t) {
    panel.append(h("h2", { text: "Triggers" }), empty("No triggers/trigger-results.json in " + state.iteration.name + "."));
    return;
  }
  const threshold = typeof t.threshold === "number" ? t.threshold : 0.5;
  const s = t.summary;
  const reused = state.iteration.trigger_reused || {};
  const rows = t.results.map(function (r, i) {
    const served = reused[String(i + 1)] || 0;
    return h("tr", { class: r.pass === false ? "failed" : "" }, [
      h("td", null, verdictBadge(r.pass)),
      h("td", { class: "query", text: r.query }),
      h("td", { class: "nowrap", text: r.should_trigger ? "should trigger" : "should not" }),
      h("td", { class: "nowrap" }, [rateBar(r.trigger_rate, threshold), pct(r.trigger_rate)]),
      h("td", { class: "num" }, [
        r.triggers + " / " + (r.runs - r.errors),
        served ? h("span", { class: "badge reused-badge", title: "Trigger runs copied from the result store, not made again", text: served + " reused" }) : null,
      ]),
      h("td", { class: "num", text: String(r.errors) }),
      h("td", { text: stolenText(r.stolen_by) }),
    ]);
  });
  append(panel, [
    h("h2", { text: "Triggers — " + state.iteration.name }),
    h("div", { class: "cards" }, [
      card("queries passed", s.passed + " / " + s.total),
      card("precision", pct(s.precision)),
      card("recall", pct(s.recall)),
      card("F1", pct(s.f1)),
      card("accuracy", pct(s.accuracy)),
      card("errored queries", String(s.errors)),
    ]),
    h("p", { class: "muted", text: "Threshold " + pct(threshold) + (t.runs_per_query ? " · " + t.runs_per_query + (t.runs_per_query === 1 ? " run" : " runs") + " per query" : "") + (t.model ? " · model " + t.model : "") }),
    h("h3", { text: "Description tested" }),
    h("pre", { class: "description", text: t.description }),
    h("h3", { text: "Queries" }),
    h("table", { class: "data triggers-table" }, [
      h("thead", null, h("tr", null, [
        h("th", { text: "result" }),
        h("th", { text: "query" }),
        h("th", { text: "expected" }),
        h("th", { text: "rate vs threshold" }),
        h("th", { class: "num", text: "triggered / scored runs" }),
        h("th", { class: "num", text: "errors" }),
        h("th", { text: "loaded instead (stolen_by)" }),
      ])),
      h("tbody", null, rows),
    ]),
  ]);
}
`;
