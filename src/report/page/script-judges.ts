// Browser code: the Judges tab (judges.json from `skillgym judges`): pairwise agreement, agreement with reviewers,
// flips on a repeat, and the expectations flagged ambiguous with a suggested rewording.
export const scriptJudges = `
function kappaText(a) {
  if (a.kappa === null || a.kappa === undefined) return "n/a";
  const ci = a.kappa_ci ? " (95% CI " + a.kappa_ci.low.toFixed(2) + " to " + a.kappa_ci.high.toFixed(2) + ")" : "";
  return a.kappa.toFixed(2) + ci;
}

function agreementRow(name, a) {
  return h("tr", null, [
    h("td", { text: name }),
    h("td", { class: "num", text: a.percent_agreement === null ? "n/a" : pct(a.percent_agreement) }),
    h("td", { class: "num", text: kappaText(a) }),
    h("td", { class: "num", text: String(a.n) }),
    h("td", { class: "num", text: String(a.disagreements.length) }),
  ]);
}

function agreementTable(rows) {
  return h("table", { class: "data judges-table" }, [
    h("thead", null, h("tr", null, [
      h("th", { text: "raters" }),
      h("th", { class: "num", text: "agreement" }),
      h("th", { class: "num", text: "Cohen's κ" }),
      h("th", { class: "num", text: "verdicts" }),
      h("th", { class: "num", text: "disagreements" }),
    ])),
    h("tbody", null, rows),
  ]);
}

function disagreementList(a, b, list) {
  return h("ul", { class: "expectations" }, list.map(function (d) {
    return h("li", { class: "failed" }, [
      h("span", { class: "exp-text", text: d.text }),
      h("span", { class: "source", text: d.run_id }),
      h("div", { class: "evidence", text: a + " " + (d.a.passed ? "PASS" : "FAIL") + ": " + d.a.evidence }),
      h("div", { class: "evidence", text: b + " " + (d.b.passed ? "PASS" : "FAIL") + ": " + d.b.evidence }),
    ]);
  }));
}

function renderJudges(panel) {
  const j = state.iteration.judges;
  panel.replaceChildren();
  if (!j) {
    panel.append(h("h2", { text: "Judges" }), empty("No judges.json in " + state.iteration.name + ": run skillgym judges on it."));
    return;
  }
  const parts = [
    h("h2", { text: "Judges — " + state.iteration.name }),
    h("p", { class: "muted", text: j.runs + " runs re-graded by " + j.judges.map(function (x) { return x.id; }).join(", ") + (j.repeat > 1 ? ", " + j.repeat + " times each" : "") + (j.simulated ? " (simulated)" : "") }),
  ];
  if (j.gate) parts.push(h("p", { class: j.gate.passed ? "good" : "bad", text: (j.gate.passed ? "PASS " : "FAIL ") + "min-judge-agreement: " + j.gate.message }));
  parts.push(h("h3", { text: "Judges against each other" }));
  parts.push(j.pairs.length ? agreementTable(j.pairs.map(function (p) { return agreementRow(p.a + " vs " + p.b, p); })) : empty("One judge: no pair to compare."));
  parts.push(h("h3", { text: "Judges against reviewers (" + j.human_marks + " marked grades)" }));
  parts.push(j.humans.length ? agreementTable(j.humans.map(function (x) { return agreementRow(x.judge + " vs reviewers", x); })) : empty("No grade marked right or wrong yet: mark them in the Outputs tab."));
  if (j.self_consistency.length) {
    parts.push(h("h3", { text: "Judges against themselves" }));
    parts.push(h("ul", null, j.self_consistency.map(function (s) {
      return h("li", { text: s.judge + ": " + s.flips + " of " + s.n + " verdicts changed when asked again (" + (s.flip_rate === null ? "n/a" : pct(s.flip_rate)) + ")" });
    })));
  }
  parts.push(h("h3", { text: "Ambiguous expectations" }));
  parts.push(j.ambiguous.length ? h("ul", { class: "expectations ambiguous" }, j.ambiguous.map(function (a) {
    return h("li", { class: "failed" }, [
      h("span", { class: "badge fail-badge", text: "ambiguous" }),
      " ",
      h("span", { class: "exp-text", text: a.text }),
      h("span", { class: "source", text: "eval " + a.eval_id }),
      h("div", { class: "evidence", text: a.reasons.join("; ") }),
      a.suggested_rewording ? h("div", { class: "rewording", text: "Suggested: " + a.suggested_rewording }) : null,
    ]);
  })) : empty("None: the judges agree with each other and with themselves."));
  for (const p of j.pairs) {
    if (!p.disagreements.length) continue;
    parts.push(h("h3", { text: p.a + " and " + p.b + " disagree" }));
    parts.push(disagreementList(p.a, p.b, p.disagreements));
  }
  append(panel, parts);
}
`;
