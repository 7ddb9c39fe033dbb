// Browser code: the Over time tab, pass rates and trigger accuracy across the workspace's iterations.
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

function chart(iterations) {
  const width = 720;
  const height = 260;
  const left = 44;
  const right = 16;
  const top = 12;
  const bottom = 32;
  const n = iterations.length;
  const x = function (i) { return n === 1 ? (left + width - right) / 2 : left + (i * (width - left - right)) / (n - 1); };
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
  for (const series of SERIES) {
    const points = [];
    iterations.forEach(function (it, i) {
      const v = it[series.key];
      if (typeof v === "number") points.push([x(i), y(v), it, v]);
    });
    if (points.length > 1) {
      root.append(svg("polyline", {
        points: points.map(function (p) { return p[0].toFixed(1) + "," + p[1].toFixed(1); }).join(" "),
        fill: "none",
        stroke: series.color,
        "stroke-width": 2,
      }));
    }
    for (const p of points) {
      root.append(svg("circle", { cx: p[0], cy: p[1], r: 4, fill: series.color }, svg("title", {}, p[2].name + ": " + series.label + " " + pct(p[3]))));
    }
  }
  return root;
}

function renderOverTime(panel) {
  const iterations = state.workspace.iterations;
  panel.replaceChildren(h("h2", { text: "Over time" }));
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
        ? h("button", { class: "open-iteration", onclick: function () { openIteration(it.number, "outputs"); }, text: it.name })
        : it.name),
      h("td", { text: (it.status || "—") + (it.simulated ? " · simulated" : "") }),
      h("td", { class: "num", text: String(it.runs) }),
      h("td", { class: "num", text: pct(it.with_skill_pass_rate) }),
      h("td", { class: "num", text: pct(it.baseline_pass_rate) + (it.baseline_configuration ? " (" + it.baseline_configuration + ")" : "") }),
      h("td", { class: "num", text: ciText(it.delta_pass_rate) }),
      h("td", { class: "num", text: pct(it.trigger_accuracy) }),
      h("td", { class: "num", text: pct(it.trigger_f1) }),
      h("td", { text: it.feedback_status || "—" }),
    ]);
  });
  append(panel, [
    h("div", { class: "chart" }, [legend, chart(iterations)]),
    h("table", { class: "data over-time" }, [
      h("thead", null, h("tr", null, [
        h("th", { text: "iteration" }),
        h("th", { text: "status" }),
        h("th", { class: "num", text: "runs" }),
        h("th", { class: "num", text: "with skill" }),
        h("th", { class: "num", text: "baseline" }),
        h("th", { class: "num", text: "delta (CI)" }),
        h("th", { class: "num", text: "trigger accuracy" }),
        h("th", { class: "num", text: "trigger F1" }),
        h("th", { text: "feedback" }),
      ])),
      h("tbody", null, rows),
    ]),
  ]);
}
`;
