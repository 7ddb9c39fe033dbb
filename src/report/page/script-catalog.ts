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

// A static file embeds each run's transcript; the server reads one when it is asked for.
function catalogTranscript(entry, dir) {
  if (STATIC) return Promise.resolve(own(entry.transcripts, dir) || null);
  return getJson("/api/catalog-transcript?catalog=" + encodeURIComponent(entry.name) + "&run=" + encodeURIComponent(dir))
    .then(function (body) { return body.transcript; });
}

function catalogTranscriptUrl(entry, dir) {
  if (STATIC) return null;
  return "/api/catalog-transcript?catalog=" + encodeURIComponent(entry.name) + "&run=" + encodeURIComponent(dir) + "&raw=1";
}

function showCatalogTranscript(entry, run, view) {
  view.dataset.run = run.dir;
  view.setAttribute("aria-busy", "true");
  view.replaceChildren(empty("Loading the transcript of " + run.dir + "…"));
  catalogTranscript(entry, run.dir).then(function (transcript) {
    if (view.dataset.run !== run.dir) return;
    view.replaceChildren(h("p", { class: "muted", text: entry.name + "/" + run.dir + " · run " + run.run_number + " · fired " + run.fired }));
    append(view, renderTranscript({ transcript: transcript, transcript_url: transcript ? catalogTranscriptUrl(entry, run.dir) : null }));
    view.removeAttribute("aria-busy");
  }, function (error) {
    view.replaceChildren(h("p", { class: "problem", text: String(error && error.message ? error.message : error) }));
    view.removeAttribute("aria-busy");
  });
}

function catalogCellDetail(entry, row, column, box) {
  const runs = catalogRunsOf(entry.results, row, column);
  const view = h("div", { class: "catalog-transcript" });
  box.replaceChildren(
    h("h3", { text: row + " → " + column + ": " + runs.length + " run(s)" }),
    h("ul", { class: "catalog-runs" }, runs.map(function (r) {
      return h("li", null, [
        h("q", { text: r.query }),
        h("span", { class: "muted", text: " · run " + r.run_number + " · " + r.dir }),
        h("button", {
          type: "button",
          class: "catalog-transcript-link",
          "data-run": r.dir,
          "aria-label": "transcript of " + r.dir,
          text: "transcript",
          onclick: function () { showCatalogTranscript(entry, r, view); },
        }),
      ]);
    })),
    view,
  );
}

function catalogHeatMap(entry, box) {
  const results = entry.results;
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
        td.addEventListener("click", function () { catalogCellDetail(entry, row, column, box); });
        td.addEventListener("keydown", function (e) { if (e.key === "Enter") catalogCellDetail(entry, row, column, box); });
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
    h("h3", null, [entry.name + " · " + lastSegment(r.dir), r.simulated ? h("span", { class: "badge error-badge catalog-simulated", text: "SIMULATED" }) : null]),
    h("p", { class: "muted", text: r.skills.length + " skills · " + r.agent.name + (r.simulated ? " (simulated)" : "") + " · " + r.runs_per_query + " run(s) per query · " + r.runs.length + " runs · " + r.errors + " errors" }),
    catalogScores(r),
    catalogHeatMap(entry, detail),
    detail,
    r.pairs.length
      ? h("ul", { class: "catalog-pairs" }, r.pairs.map(function (p) { return h("li", { text: p.skills[0] + " ↔ " + p.skills[1] + ": " + p.runs + " run(s)" }); }))
      : null,
    r.notes.length ? h("ul", { class: "muted" }, r.notes.map(function (n) { return h("li", { text: n }); })) : null,
  ]);
}

function lastSegment(path) {
  return String(path).split(String.fromCharCode(92)).join("/").split("/").filter(Boolean).pop() || String(path);
}

// A page of catalogs only has no iteration to name it: the newest catalog's folder does, and says if it was simulated.
function catalogPageHeader(catalogs) {
  if (state.iteration) return;
  const named = catalogs.filter(function (c) { return c.results; });
  if (named.length) {
    const library = lastSegment(named[0].results.dir);
    document.title = "skillgym — catalog of " + library;
    document.getElementById("skill-name").textContent = "catalog of " + library;
  }
  const simulated = named.filter(function (c) { return c.results.simulated; });
  const banner = document.getElementById("banner");
  banner.hidden = !simulated.length;
  banner.textContent = !simulated.length
    ? ""
    : "SIMULATED: " +
      (simulated.length === named.length ? "these catalogs were" : simulated.map(function (c) { return c.name; }).join(", ") + (simulated.length > 1 ? " were" : " was")) +
      " answered by skillgym sim, a scripted stand-in, not a model. The matrix tests the queries and the sim script, not how a model routes them.";
}

function renderCatalog(panel) {
  const catalogs = (state.catalogs && state.catalogs.catalogs) || [];
  catalogPageHeader(catalogs);
  panel.replaceChildren(h("h2", { text: "Catalog" }));
  if (!catalogs.length) {
    panel.append(empty("No catalog-<N>/ folder in this workspace: run skillgym catalog <dir>."));
    return;
  }
  for (const entry of catalogs) panel.append(catalogSection(entry));
}
`;
