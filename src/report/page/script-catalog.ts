// Browser code: the Catalog tab, each catalog-<N>/ routing matrix as a heat map; a cell lists its queries and runs.
export const scriptCatalog = `
function catalogColumns(results) {
  return results.skills.map(function (s) { return s.name; }).concat(["none"]);
}

// A cell is right when the owner fired on its own query, or when anything but the owner fired on a not:<owner> one.
function catalogCellRight(row, column) {
  return row.indexOf("not:") === 0 ? column !== row.slice(4) : column === row;
}

function catalogRunsOf(results, row, column) {
  const not = row.indexOf("not:") === 0;
  const owner = not ? row.slice(4) : row;
  return results.runs.filter(function (r) {
    return r.owner === owner && r.should_trigger === !not && r.fired === column && !r.error;
  });
}

function catalogCellDetail(results, row, column, box) {
  const runs = catalogRunsOf(results, row, column);
  box.replaceChildren(
    h("h3", { text: row + " → " + column + ": " + runs.length + " run(s)" }),
    h("ul", { class: "catalog-runs" }, runs.map(function (r) {
      return h("li", null, [h("q", { text: r.query }), h("span", { class: "muted", text: " · run " + r.run_number + " · " + r.dir })]);
    })),
  );
}

function catalogHeatMap(results, box) {
  const columns = catalogColumns(results);
  const rows = Object.keys(results.confusion);
  const head = h("tr", null, [h("th", { text: "Query of ↓ / fired →" })].concat(columns.map(function (c) { return h("th", { text: c }); })));
  const body = rows.map(function (row) {
    const cells = results.confusion[row];
    const total = columns.reduce(function (sum, c) { return sum + (cells[c] || 0); }, 0);
    return h("tr", { "data-row": row }, [h("th", { text: row })].concat(columns.map(function (column) {
      const n = cells[column] || 0;
      const right = catalogCellRight(row, column);
      const td = h("td", {
        class: "num heat" + (n ? (right ? " right" : " wrong") : ""),
        "data-row": row,
        "data-column": column,
        tabindex: n ? "0" : null,
        title: n ? "click for the queries" : null,
        text: n ? String(n) : "",
      });
      if (n) {
        const share = total ? n / total : 0;
        td.style.backgroundColor = (right ? "rgba(26,127,55," : "rgba(207,34,46,") + (0.15 + 0.75 * share).toFixed(2) + ")";
        td.addEventListener("click", function () { catalogCellDetail(results, row, column, box); });
        td.addEventListener("keydown", function (e) { if (e.key === "Enter") catalogCellDetail(results, row, column, box); });
      }
      return td;
    })));
  });
  return h("table", { class: "data catalog-matrix" }, [h("thead", null, head), h("tbody", null, body)]);
}

function catalogScores(results) {
  return h("table", { class: "data catalog-scores" }, [
    h("thead", null, h("tr", null, ["Skill", "Queries", "Runs", "Precision", "Recall", "F1"].map(function (x) { return h("th", { text: x }); }))),
    h("tbody", null, results.skills.map(function (s) {
      return h("tr", null, [
        h("td", { text: s.name }),
        h("td", { class: "num", text: s.queries ? String(s.queries) : "none (competitor)" }),
        h("td", { class: "num", text: String(s.runs) }),
        h("td", { class: "num", text: pct(s.precision) }),
        h("td", { class: "num", text: pct(s.recall) }),
        h("td", { class: "num", text: pct(s.f1) }),
      ]);
    })),
  ]);
}

function catalogSection(entry) {
  const r = entry.results;
  if (!r) return h("section", { class: "catalog" }, [h("h3", { text: entry.name }), h("p", { class: "problem", text: entry.problem })]);
  const detail = h("div", { class: "catalog-detail" }, empty("Click a cell to see its queries and runs."));
  return h("section", { class: "catalog", "data-catalog": entry.name }, [
    h("h3", { text: entry.name }),
    h("p", { class: "muted", text: r.skills.length + " skills · " + r.agent.name + (r.simulated ? " (simulated)" : "") + " · " + r.runs_per_query + " run(s) per query · " + r.runs.length + " runs · " + r.errors + " errors" }),
    catalogScores(r),
    catalogHeatMap(r, detail),
    detail,
    r.pairs.length
      ? h("ul", { class: "catalog-pairs" }, r.pairs.map(function (p) { return h("li", { text: p.skills[0] + " ↔ " + p.skills[1] + ": " + p.runs + " run(s)" }); }))
      : null,
    r.notes.length ? h("ul", { class: "muted" }, r.notes.map(function (n) { return h("li", { text: n }); })) : null,
  ]);
}

function renderCatalog(panel) {
  const catalogs = (state.catalogs && state.catalogs.catalogs) || [];
  panel.replaceChildren(h("h2", { text: "Catalog" }));
  if (!catalogs.length) {
    panel.append(empty("No catalog-<N>/ folder in this workspace: run skillgym catalog <dir>."));
    return;
  }
  for (const entry of catalogs) panel.append(catalogSection(entry));
}
`;
