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

// Side by side (--conditions clean,real): what a query passing in one condition and failing in the other means.
function sideFlagText(flag, shouldTrigger, project) {
  const clean = project ? "in an empty folder" : "in the clean room";
  const real = project ? "in your repository" : "under your conditions";
  if (shouldTrigger) return flag === "clean-only" ? "fires " + clean + ", not " + real : "fires " + real + ", not " + clean;
  return flag === "clean-only" ? "quiet " + clean + ", fires " + real : "quiet " + real + ", fires " + clean;
}

function signedPct(x) {
  if (typeof x !== "number") return "—";
  return (x > 0 ? "+" : x < 0 ? "−" : "±") + Math.round(Math.abs(x) * 100) + " pts";
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
  const sides = t.side_by_side;
  const project = !!(t.conditions && t.conditions.project_root);
  const rows = t.results.map(function (r, i) {
    const served = reused[String(i + 1)] || 0;
    const side = r.side_by_side;
    const sideCells = !sides ? [] : [
      h("td", { class: "nowrap" }, side ? [verdictBadge(side.clean.pass), " ", rateBar(side.clean.trigger_rate, threshold), pct(side.clean.trigger_rate)] : "—"),
      h("td", { class: "nowrap" }, [verdictBadge(r.pass), " ", rateBar(r.trigger_rate, threshold), pct(r.trigger_rate)]),
      h("td", { class: "num nowrap", text: side ? signedPct(side.difference) : "—" }),
      h("td", { class: "side-flag" }, side && side.flag ? h("span", { class: "badge side-flag-" + side.flag, text: sideFlagText(side.flag, r.should_trigger, project) }) : ""),
    ];
    return h("tr", { class: r.pass === false ? "failed" : "" }, [
      h("td", null, verdictBadge(r.pass)),
      h("td", { class: "query", text: r.query }),
      h("td", { class: "nowrap", text: r.should_trigger ? "should trigger" : "should not" }),
    ].concat(sides ? sideCells : [
      h("td", { class: "nowrap" }, [rateBar(r.trigger_rate, threshold), pct(r.trigger_rate)]),
    ]).concat([
      h("td", { class: "num" }, [
        r.triggers + " / " + (r.runs - r.errors),
        served ? h("span", { class: "badge reused-badge", title: "Trigger runs copied from the result store, not made again", text: served + " reused" }) : null,
      ]),
      h("td", { class: "num", text: String(r.errors) }),
      h("td", { text: stolenText(r.stolen_by) }),
    ]));
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
    sides ? h("p", { class: "side-by-side-note", text: "Side by side: the same queries in the clean room (an empty folder, no other skill, a fresh conversation) and under the real conditions (" + [project ? "your project" : "", t.conditions && t.conditions.installed ? t.conditions.installed.length + " skills installed beside it" : "", t.conditions && t.conditions.context ? "a prior conversation" : ""].filter(Boolean).join(", ") + "). " + sides.clean_only + " pass only in the clean room, " + sides.real_only + " only under the real conditions; the cards above are the real conditions', the clean room passed " + sides.clean_summary.passed + " / " + sides.clean_summary.total + "." }) : null,
    h("h3", { text: "Description tested" }),
    h("pre", { class: "description", text: t.description }),
    h("h3", { text: "Queries" }),
    h("table", { class: "data triggers-table" }, [
      h("thead", null, h("tr", null, [
        h("th", { text: "result" }),
        h("th", { text: "query" }),
        h("th", { text: "expected" }),
      ].concat(sides ? [
        h("th", { text: "clean room" }),
        h("th", { text: "real conditions" }),
        h("th", { class: "num", text: "difference" }),
        h("th", { text: "only in one" }),
      ] : [
        h("th", { text: "rate vs threshold" }),
      ]).concat([
        h("th", { class: "num", text: "triggered / scored runs" }),
        h("th", { class: "num", text: "errors" }),
        h("th", { text: "loaded instead (stolen_by)" }),
      ]))),
      h("tbody", null, rows),
    ]),
  ]);
}
`;
