// Browser code: the Over time tab's lift chart, from history.json: with skill minus baseline per iteration, its 95%
// interval as a shaded band, the zero and ±effect-floor lines, and a red ring on a point that regressed.
export const scriptLift = `
const LIFT_COLOR = "#1a7f37";
const REGRESSED_COLOR = "#cf222e";

function liftFloor(points) {
  let floor = 0;
  for (const p of points) if (typeof p.history.effect_floor === "number") floor = Math.max(floor, p.history.effect_floor);
  return floor || 0.05;
}

// The band of every run of consecutive iterations with an interval: a polygon, or a bar for a lone one.
function liftBands(points, x, y) {
  const bands = [];
  let run = [];
  const flush = function () {
    if (run.length === 1) {
      const d = run[0].history.delta;
      bands.push(svg("rect", { class: "lift-band", x: x(run[0].i) - 6, y: y(d.ci_high), width: 12,
        height: Math.max(1, y(d.ci_low) - y(d.ci_high)), fill: LIFT_COLOR, "fill-opacity": 0.18 }));
    } else if (run.length > 1) {
      const upper = run.map(function (p) { return x(p.i).toFixed(1) + "," + y(p.history.delta.ci_high).toFixed(1); });
      const lower = run.slice().reverse().map(function (p) { return x(p.i).toFixed(1) + "," + y(p.history.delta.ci_low).toFixed(1); });
      bands.push(svg("polygon", { class: "lift-band", points: upper.concat(lower).join(" "), fill: LIFT_COLOR, "fill-opacity": 0.18 }));
    }
    run = [];
  };
  points.forEach(function (p, k) {
    if (k > 0 && p.i !== points[k - 1].i + 1) flush();
    run.push(p);
  });
  flush();
  return bands;
}

function regressedText(it) {
  const h = it.history;
  const evals = h.regressed_evals || 0;
  const what = h.change === "regressed" ? "regressed" : evals + (evals === 1 ? " eval" : " evals") + " regressed";
  return it.name + ": " + what + " against " + h.parent + (h.change === "regressed" && evals ? " (" + evals + (evals === 1 ? " eval)" : " evals)") : "");
}

function isRegressed(h) {
  return h.change === "regressed" || (h.regressed_evals || 0) > 0;
}

function liftChart(iterations) {
  const points = [];
  iterations.forEach(function (it, i) {
    if (it.history && it.history.delta) points.push({ i: i, it: it, history: it.history });
  });
  if (!points.length) return null;
  const { width, left, right, top, bottom } = CHART;
  const height = 220;
  const n = iterations.length;
  const floor = liftFloor(points);
  let low = -floor;
  let high = floor;
  for (const p of points) {
    low = Math.min(low, p.history.delta.ci_low);
    high = Math.max(high, p.history.delta.ci_high);
  }
  const pad = (high - low) * 0.08;
  low = Math.max(-1, low - pad);
  high = Math.min(1, high + pad);
  const x = function (i) { return chartX(i, n); };
  const y = function (v) { return top + ((high - v) / (high - low)) * (height - top - bottom); };
  const root = svg("svg", { class: "lift-chart", viewBox: "0 0 " + width + " " + height, width: "100%", role: "img",
    "aria-label": "Lift (with skill minus baseline) by iteration, with its 95% interval" });
  append(root, liftBands(points, x, y));
  root.append(svg("line", { class: "lift-zero", x1: left, x2: width - right, y1: y(0), y2: y(0), stroke: "#59636e", "stroke-width": 1 }));
  // The floor lines are named at their right end, outside the band between them; the axis names 0 and the extremes.
  for (const v of [floor, -floor]) {
    root.append(
      svg("line", { class: "lift-floor", x1: left, x2: width - right, y1: y(v), y2: y(v), stroke: "#9a6700", "stroke-width": 1, "stroke-dasharray": "4 3" }),
      svg("text", { x: width - right, y: v > 0 ? y(v) - 3 : y(v) + 11, "text-anchor": "end", "font-size": 10, fill: "#9a6700" }, signed(v)),
    );
  }
  for (const v of [0, high, low]) {
    if (v !== 0 && Math.abs(y(v) - y(0)) < 14) continue;
    root.append(svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#59636e" }, v === 0 ? "0" : signed(v)));
  }
  iterations.forEach(function (it, i) {
    root.append(svg("text", { x: x(i), y: height - 10, "text-anchor": "middle", "font-size": 11, fill: "#59636e" }, "#" + it.number));
  });
  if (points.length > 1) {
    root.append(svg("polyline", {
      points: points.map(function (p) { return x(p.i).toFixed(1) + "," + y(p.history.delta.estimate).toFixed(1); }).join(" "),
      fill: "none", stroke: LIFT_COLOR, "stroke-width": 2,
    }));
  }
  for (const p of points) {
    const d = p.history.delta;
    const regressed = isRegressed(p.history);
    const cx = x(p.i).toFixed(1);
    const cy = y(d.estimate).toFixed(1);
    root.append(svg("circle", {
      class: regressed ? "lift-point regressed" : "lift-point", cx: cx, cy: cy, r: 4, fill: LIFT_COLOR,
      stroke: "#fff", "stroke-width": 1.5, "data-iteration": p.it.number,
    }, svg("title", {}, p.it.name + ": lift " + ciText(d) + (p.history.verdict ? ", " + p.history.verdict : ""))));
    if (regressed) {
      root.append(svg("circle", {
        class: "regressed-mark", cx: cx, cy: cy, r: 8, fill: "none", stroke: REGRESSED_COLOR, "stroke-width": 2,
        "data-iteration": p.it.number,
      }, svg("title", {}, regressedText(p.it))));
    }
  }
  return h("div", { class: "chart lift" }, [
    h("div", { class: "legend" }, [liftLegend(floor)]),
    root,
  ]);
}

function liftLegend(floor) {
  const item = h("span", { text: "lift: with skill − baseline, 95% interval shaded; dashed: ±" + fixed(floor, 2) + " effect floor; red ring: regressed against the previous" });
  item.style.color = LIFT_COLOR;
  return item;
}

function historyVerdictText(it) {
  const h = it.history;
  if (!h || !h.verdict) return "—";
  return h.verdict + (h.redundant ? " · redundant" : "");
}

function historyChangeText(it) {
  const h = it.history;
  if (!h || !h.change) return "—";
  const evals = h.regressed_evals || 0;
  return h.change + (evals > 0 ? " (" + evals + (evals === 1 ? " eval" : " evals") + " regressed)" : "");
}
`;
