// Browser code: the Tune tab, each tune-<timestamp>/ folder's rounds, their scores and the final report.
export const scriptTune = `
const DIMENSIONS = ["clarity", "completeness", "correctness", "effectiveness", "efficiency"];

function score100(x) {
  return typeof x === "number" && isFinite(x) ? x.toFixed(1) : "—";
}

function progression(tune) {
  const bars = tune.iterations.map(function (it) {
    const value = typeof it.score === "number" ? Math.max(0, Math.min(100, it.score)) : 0;
    const fill = h("div", { class: "tune-fill" + (it.version === tune.current_best ? " best" : ""), title: it.version + ": " + score100(it.score) });
    fill.style.height = value + "%";
    return h("div", { class: "tune-bar" }, [
      h("div", { class: "tune-value", text: score100(it.score) }),
      h("div", { class: "tune-track" }, fill),
      h("div", { class: "tune-label", text: "#" + it.round + " " + it.version }),
    ]);
  });
  const chart = h("div", { class: "tune-chart", role: "img", "aria-label": "Composite score by round" }, bars);
  if (typeof tune.quality_threshold === "number") {
    const line = h("div", { class: "tune-threshold", title: "quality threshold " + tune.quality_threshold });
    line.style.bottom = "calc(1.9rem + " + (tune.quality_threshold / 100) + " * 10rem)";
    chart.append(line);
  }
  return chart;
}

function tuneTable(tune) {
  const rows = tune.iterations.map(function (it) {
    const dims = it.dimensions || {};
    return h("tr", { class: it.version === tune.current_best ? "best" : null }, [
      h("td", { class: "num", text: String(it.round) }),
      h("td", { text: it.version + (it.version === tune.current_best ? " ★" : "") }),
      h("td", { text: it.status }),
      h("td", { class: "num score", text: score100(it.score) }),
      h("td", { class: "num", text: pct(it.expectation_pass_rate) }),
    ].concat(DIMENSIONS.map(function (d) {
      return h("td", { class: "num", text: score100(own(dims, d)) });
    }), [h("td", { text: it.grading_result || "—" })]));
  });
  return h("table", { class: "data tune-table" }, [
    h("thead", null, h("tr", null, [
      h("th", { class: "num", text: "round" }),
      h("th", { text: "version" }),
      h("th", { text: "status" }),
      h("th", { class: "num", text: "score" }),
      h("th", { class: "num", text: "expectations" }),
    ].concat(DIMENSIONS.map(function (d) { return h("th", { class: "num", text: d }); }), [h("th", { text: "result" })]))),
    h("tbody", null, rows),
  ]);
}

function tuneSection(tune) {
  const section = h("section", { class: "tune", "data-tune": tune.name }, [
    h("h3", { text: tune.name + (tune.target_skills.length ? " — " + tune.target_skills.join(", ") : "") }),
    h("dl", { class: "facts" }, [
      h("dt", { text: "status" }), h("dd", { text: tune.status || "—" }),
      h("dt", { text: "termination" }), h("dd", { text: tune.termination_reason || "—" }),
      h("dt", { text: "current best" }), h("dd", { text: (tune.current_best || "—") + (typeof tune.best_score === "number" ? " (" + score100(tune.best_score) + ")" : "") }),
    ]),
  ]);
  for (const problem of tune.problems) section.append(h("p", { class: "problem", text: problem }));
  if (tune.iterations.length) {
    section.append(progression(tune), tuneTable(tune));
  } else if (!tune.problems.length) {
    section.append(empty("No rounds recorded yet."));
  }
  if (tune.final_report !== null) {
    section.append(h("h4", { text: "final-report.md" }), h("pre", { class: "final-report", text: tune.final_report }));
  }
  return section;
}

function renderTune(panel) {
  panel.replaceChildren(h("h2", { text: "Tune" }), empty("Loading…"));
  source.tunes().then(function (view) {
    panel.replaceChildren(h("h2", { text: "Tune" }));
    if (!view.workspace) {
      panel.append(empty("Tune runs are listed when the viewer is given a workspace folder."));
    } else if (!view.tunes.length) {
      panel.append(empty("No tune runs in this workspace"));
    } else {
      for (const tune of view.tunes) panel.append(tuneSection(tune));
    }
  }).catch(function (error) {
    panel.replaceChildren(h("h2", { text: "Tune" }), h("p", { class: "problem", text: String(error && error.message ? error.message : error) }));
  });
}
`;
