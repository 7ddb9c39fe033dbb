// Browser code: the Agents tab of an iteration that ran several agents or models: matrix.json, one row a part (its
// folder is row.dir: the agent's name, the model's, or both).
export const scriptAgents = `
function agentDelta(d) {
  if (!d) return "—";
  return signed(d.estimate) + " [" + signed(d.ci_low) + ", " + signed(d.ci_high) + "]" + (d.distinguishable ? "" : " ~");
}

function agentRow(row) {
  const t = row.triggers;
  const open = h("button", {
    class: "open-agent",
    "data-agent": row.dir,
    text: row.agent,
    onclick: function () { openIteration(state.iteration.number, "outputs", null, row.dir).catch(fatal); },
  });
  return h("tr", { "data-agent": row.dir }, [
    h("td", null, [
      open,
      row.version ? h("span", { class: "muted", text: " " + row.version }) : null,
      row.model ? h("span", { class: "model", text: " · " + row.model }) : null,
    ]),
    h("td", { class: "num", text: pct(row.with_skill_pass_rate) }),
    h("td", { class: "num", text: row.baseline_configuration ? pct(row.baseline_pass_rate) + " (" + row.baseline_configuration + ")" : "none" }),
    h("td", { class: "num", text: agentDelta(row.delta_pass_rate) }),
    h("td", { class: "verdict-cell", text: row.redundant ? "redundant" : row.verdict || "—" }),
    h("td", { class: "num", text: t ? pct(t.precision) : "—" }),
    h("td", { class: "num", text: t ? pct(t.recall) : "—" }),
    h("td", { class: "num", text: t ? pct(t.accuracy) : "—" }),
    h("td", { class: "num", text: "$" + fixed(row.cost_usd, 4) }),
    h("td", { class: "num", text: fixed(row.wall_seconds, 1) + " s" }),
    h("td", { text: row.status === "complete" ? "" : row.status.replace("_", " ") }),
  ]);
}

function renderAgents(panel) {
  const m = state.iteration.matrix;
  panel.replaceChildren();
  const name = "iteration-" + state.iteration.number;
  if (!m) {
    panel.append(h("h2", { text: "Agents" }), empty("No matrix.json in " + name + ": the run stopped before it was written. Run it again to finish."));
    return;
  }
  const heads = ["Agent", "With skill", "Baseline", "Delta [95% CI]", "Verdict", "Trigger precision", "Trigger recall", "Trigger accuracy", "Cost", "Wall time", "Note"];
  append(panel, [
    h("h2", { text: "Agents — " + name }),
    h("p", { class: "muted", text: m.skill_name + " · " + m.agents.length + " parts · " + m.timestamp }),
    h("table", { class: "data agents-matrix" }, [
      h("thead", null, h("tr", null, heads.map(function (x) { return h("th", { text: x }); }))),
      h("tbody", null, m.agents.map(agentRow)),
    ]),
    h("p", { class: "muted", text: "Delta is with_skill minus the baseline with its 95% interval (paired bootstrap over evals); ~ marks an interval that includes zero. The verdict holds it against the effect floor; redundant: no effect while the baseline already passes. Pick a row to see its runs, benchmark and triggers." }),
  ]);
}
`;
