// Browser code: the Over time tab, pass rates and trigger accuracy across the workspace's iterations, then the lift
// (script-lift.ts) and a table with each iteration's verdict and its change against the previous one (history.json).
export const scriptOverTime = `
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, children) {
  const el = document.createElementNS(SVG, tag);
  for (const key of Object.keys(attrs || {})) el.setAttribute(key, String(attrs[key]));
  append(el, children);
  return el;
}

const SERIES = [
  { key: "with_skill_pass_rate", label: "with skill pass rate", color: "#1a7f37" },
  { key: "baseline_pass_rate", label: "baseline pass rate", color: "#6e7781" },
  { key: "trigger_accuracy", label: "trigger accuracy", color: "#0969da" },
];

const MARKER_R = 4;

// Points of one iteration that would overlap (equal with and without pass rates) are set side by side.
function spreadCoinciding(markers) {
  const byX = {};
  for (const p of markers) (byX[p.x] = byX[p.x] || []).push(p);
  for (const key of Object.keys(byX)) {
    const column = byX[key].slice().sort(function (a, b) { return a.y - b.y; });
    let group = [];
    const flush = function () {
      group.forEach(function (p, k) { p.dx = (k - (group.length - 1) / 2) * (2 * MARKER_R + 2); });
      group = [];
    };
    for (const p of column) {
      if (group.length && p.y - group[group.length - 1].y >= 2 * MARKER_R) flush();
      group.push(p);
    }
    flush();
  }
}

// The frame both charts of the tab share: their width and margins, and where iteration i of n stands.
const CHART = { width: 720, left: 52, right: 16, top: 12, bottom: 32 };
function chartX(i, n) {
  return n === 1 ? (CHART.left + CHART.width - CHART.right) / 2 : CHART.left + (i * (CHART.width - CHART.left - CHART.right)) / (n - 1);
}

function chart(iterations) {
  const { width, left, right, top, bottom } = CHART;
  const height = 260;
  const n = iterations.length;
  const x = function (i) { return chartX(i, n); };
  const y = function (v) { return top + (1 - v) * (height - top - bottom); };
  const root = svg("svg", { viewBox: "0 0 " + width + " " + height, width: "100%", role: "img", "aria-label": "Pass rates and trigger accuracy by iteration" });
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    root.append(
      svg("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), stroke: "#d1d9e0", "stroke-width": 1 }),
      svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#59636e" }, Math.round(v * 100) + "%"),
    );
  }
  iterations.forEach(function (it, i) {
    root.append(svg("text", { x: x(i), y: height - 10, "text-anchor": "middle", "font-size": 11, fill: "#59636e" }, "#" + it.number));
  });
  const markers = [];
  for (const series of SERIES) {
    const points = [];
    iterations.forEach(function (it, i) {
      const v = it[series.key];
      if (typeof v === "number") points.push({ x: x(i), y: y(v), it: it, v: v, series: series, dx: 0 });
    });
    if (points.length > 1) {
      root.append(svg("polyline", {
        points: points.map(function (p) { return p.x.toFixed(1) + "," + p.y.toFixed(1); }).join(" "),
        fill: "none",
        stroke: series.color,
        "stroke-width": 2,
      }));
    }
    for (const p of points) markers.push(p);
  }
  spreadCoinciding(markers);
  // Markers after every line, outlined in white, so no line or other marker covers one.
  for (const p of markers) {
    root.append(svg("circle", {
      class: "point",
      cx: (p.x + p.dx).toFixed(1),
      cy: p.y.toFixed(1),
      r: MARKER_R,
      fill: p.series.color,
      stroke: "#fff",
      "stroke-width": 1.5,
      "data-series": p.series.key,
      "data-iteration": p.it.number,
    }, svg("title", {}, p.it.name + ": " + p.series.label + " " + pct(p.v))));
  }
  return root;
}

// In a workspace whose iterations ran several agents, each iteration shows the figures of the agent picked.
function iterationsOfAgent(iterations, agent) {
  return iterations.map(function (it) {
    const own = it.agents && agent ? it.agents[agent] : null;
    return own ? Object.assign({}, own, { number: it.number, name: it.name }) : it;
  });
}

function renderOverTime(panel) {
  const agent = state.iteration && state.iteration.agent;
  const iterations = iterationsOfAgent(state.workspace.iterations, agent);
  panel.replaceChildren(h("h2", { text: agent ? "Over time: " + agent : "Over time" }));
  if (!iterations.length) {
    panel.append(empty("No iterations."));
    return;
  }
  const legend = h("div", { class: "legend" }, SERIES.map(function (s) {
    const item = h("span", { text: s.label });
    item.style.color = s.color;
    return item;
  }));
  const rows = iterations.map(function (it) {
    const shown = state.workspace.shown.indexOf(it.number) !== -1;
    return h("tr", null, [
      h("td", null, shown
        ? h("button", { class: "open-iteration", onclick: function () { openIteration(it.number, null).catch(fatal); }, text: it.name })
        : it.name),
      h("td", { text: (it.status || "—") + (it.simulated ? " · simulated" : "") }),
      h("td", { class: "num", text: String(it.runs) }),
      h("td", { class: "num", text: pct(it.with_skill_pass_rate) }),
      h("td", { class: "num", text: pct(it.baseline_pass_rate) + (it.baseline_configuration ? " (" + it.baseline_configuration + ")" : "") }),
      h("td", { class: "num", text: ciText(it.delta_pass_rate) }),
      h("td", { class: "verdict", text: historyVerdictText(it) }),
      h("td", { class: "vs-previous", text: historyChangeText(it) }),
      h("td", { class: "num", text: pct(it.trigger_accuracy) }),
      h("td", { class: "num", text: pct(it.trigger_f1) }),
      h("td", { text: it.feedback_status || "—" }),
    ]);
  });
  append(panel, [
    h("div", { class: "chart" }, [legend, chart(iterations)]),
    liftChart(iterations),
    h("table", { class: "data over-time" }, [
      h("thead", null, h("tr", null, [
        h("th", { text: "iteration" }),
        h("th", { text: "status" }),
        h("th", { class: "num", text: "runs" }),
        h("th", { class: "num", text: "with skill" }),
        h("th", { class: "num", text: "baseline" }),
        h("th", { class: "num", text: "delta (CI)" }),
        h("th", { text: "verdict" }),
        h("th", { text: "vs previous" }),
        h("th", { class: "num", text: "trigger accuracy" }),
        h("th", { class: "num", text: "trigger F1" }),
        h("th", { text: "feedback" }),
      ])),
      h("tbody", null, rows),
    ]),
  ]);
}
`;
