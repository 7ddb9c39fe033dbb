// Browser code: the Outputs tab, one run at a time.
export const scriptOutputs = `
function fileName(path) {
  const parts = String(path).split("/");
  return parts[parts.length - 1] || "file";
}

function fileBody(file) {
  if (file.kind === "image") {
    return file.url ? h("img", { src: file.url, alt: file.path, loading: "lazy" }) : empty("Too big to embed in this file.");
  }
  if (file.kind === "binary") return empty("Binary file: use the download link.");
  const text = file.text || "";
  if (file.kind === "markdown") return renderMarkdown(text);
  if (file.kind === "json") {
    let shown = text;
    try {
      shown = JSON.stringify(JSON.parse(text), null, 2);
    } catch (error) {}
    return h("pre", { class: "json", text: shown });
  }
  return h("pre", { class: file.kind, text: text });
}

function renderFile(file) {
  const head = h("div", { class: "file-head" }, [
    h("span", { class: "file-name", text: file.path }),
    h("span", { class: "muted", text: sizeText(file.size) + (file.truncated ? " · first part shown" : "") }),
    h("span", { class: "spacer" }),
    file.url ? h("a", { href: file.url, download: fileName(file.path), text: "download" }) : null,
  ]);
  return h("div", { class: "file", "data-kind": file.kind }, [head, h("div", { class: "file-body" }, fileBody(file))]);
}

function renderFiles(files, omitted) {
  if (!files.length) return empty("No output files.");
  const list = files.map(renderFile);
  if (omitted) list.push(empty(omitted + " more files not listed."));
  return list;
}

// "This grade is right / wrong": one click writes the mark into feedback.json; a second click on it takes it back.
function gradeMarker(runId, x) {
  const box = h("span", { class: "grade-mark" });
  function draw() {
    const current = feedback.markOf(runId, x.text);
    box.replaceChildren();
    for (const verdict of ["right", "wrong"]) {
      const label = verdict === "right" ? "✓ grade right" : "✗ grade wrong";
      const button = h("button", { type: "button", class: "mark-" + verdict + (current === verdict ? " marked" : ""), text: label, title: "Mark this grade " + verdict + " (feedback.json)" });
      button.setAttribute("aria-pressed", current === verdict ? "true" : "false");
      button.addEventListener("click", function () {
        feedback.mark(runId, x.text, current === verdict ? null : verdict).then(draw);
        draw();
      });
      box.append(button);
    }
  }
  draw();
  return box;
}

function renderExpectation(x, contradiction, runId) {
  return h("li", { class: (x.passed ? "passed" : "failed") + (contradiction ? " contradicted" : "") }, [
    verdictBadge(x.passed),
    " ",
    contradiction
      ? h("span", { class: "badge contradiction-badge", title: "A check of this run failed on the file this verdict is about", text: "contradicts check: " + contradiction.reason })
      : null,
    contradiction ? " " : null,
    h("span", { class: "exp-text", text: x.text }),
    x.source ? h("span", { class: "source", text: x.source + (x.check_type ? " · " + x.check_type : "") }) : null,
    h("div", { class: "evidence", text: x.evidence }),
    runId && x.source !== "check" ? gradeMarker(runId, x) : null,
  ]);
}

function renderGrades(grading, runId) {
  if (!grading) return empty("Not graded.");
  const contradictions = grading.contradictions || [];
  const parts = [h("ul", { class: "expectations" }, grading.expectations.map(function (x, i) {
    return renderExpectation(x, contradictions.find(function (c) { return c.expectation === i; }), runId);
  }))];
  if (grading.claims && grading.claims.length) {
    parts.push(h("h3", { text: "Claims" }));
    parts.push(h("ul", { class: "expectations" }, grading.claims.map(function (c) {
      return h("li", { class: c.verified ? "passed" : "failed" }, [
        h("span", { class: "badge " + (c.verified ? "pass-badge" : "fail-badge"), text: c.verified ? "VERIFIED" : "UNVERIFIED" }),
        " ",
        h("span", { class: "exp-text", text: c.claim }),
        h("span", { class: "source", text: c.type }),
        c.evidence ? h("div", { class: "evidence", text: c.evidence }) : null,
      ]);
    })));
  }
  const ef = grading.eval_feedback;
  if (ef && (ef.overall || (ef.suggestions && ef.suggestions.length))) {
    parts.push(h("h3", { text: "About the eval itself" }));
    if (ef.overall) parts.push(h("p", { text: ef.overall }));
    parts.push(h("ul", null, (ef.suggestions || []).map(function (s) {
      return h("li", null, [s.assertion ? h("strong", { text: s.assertion + ": " }) : null, s.reason]);
    })));
  }
  return parts;
}

// timing.json's reused_from: the run was copied from the result store, not made again.
function reusedFromText(from) {
  return from.iteration + "/" + from.run + (from.workspace ? " in " + from.workspace : "") +
    " (it cost $" + fixed(from.cost_usd || 0, 4) + " then, $0 now)";
}

function renderFacts(run) {
  const t = run.timing || {};
  const m = run.metrics || {};
  const rows = [
    ["reused from", t.reused_from ? reusedFromText(t.reused_from) : null],
    ["duration", t.total_duration_seconds !== undefined ? fixed(t.total_duration_seconds, 1) + " s" : null],
    ["tokens", t.total_tokens !== undefined ? thousands(t.total_tokens) + (t.input_tokens !== undefined ? " (" + thousands(t.input_tokens) + " in, " + thousands(t.output_tokens) + " out)" : "") : null],
    ["cost", t.cost_usd !== undefined ? "$" + fixed(t.cost_usd, 4) : null],
    ["turns", t.num_turns],
    ["model", t.model],
    ["attempts", t.attempts],
    ["tool calls", m.tool_calls ? Object.keys(m.tool_calls).map(function (k) { return k + " × " + m.tool_calls[k]; }).join(", ") : null],
  ].filter(function (row) { return row[1] !== undefined && row[1] !== null && row[1] !== ""; });
  if (!rows.length) return empty("No timing recorded.");
  const list = h("dl", { class: "facts" });
  for (const row of rows) list.append(h("dt", { text: row[0] }), h("dd", { text: row[1] }));
  return list;
}

function renderPrevious(run) {
  const prev = run.previous;
  if (!prev) return [h("h3", { text: "Previous iteration" }), empty("No earlier iteration of this eval.")];
  return [
    h("h3", { text: "Previous iteration: iteration-" + prev.iteration }),
    h("p", { class: "previous-note", text: prev.id + " · " + pct(prev.pass_rate) + " passed" }),
    renderFiles(prev.outputs, 0),
  ];
}

function renderRun(run) {
  const summary = run.grading ? run.grading.summary : null;
  const failedRun = run.outcome && run.outcome !== "success";
  const reused = run.timing && run.timing.reused_from;
  const head = h("div", { class: "run-head" }, [
    h("h2", { class: "eval-name", text: run.eval_name }),
    configurationBadge(run.configuration),
    h("span", { class: "muted", text: "run " + run.run_number }),
    summary
      ? h("span", { class: "score " + (summary.pass_rate >= 1 ? "good" : "bad"), text: summary.passed + "/" + summary.total + " passed (" + pct(summary.pass_rate) + ")" })
      : null,
    failedRun ? h("span", { class: "badge error-badge", text: run.outcome }) : null,
    reused ? h("span", { class: "badge reused-badge", title: "Copied from the result store, not made again", text: "reused" }) : null,
    run.activation && run.activation.contaminated ? h("span", { class: "badge fail-badge contaminated-badge", text: "contaminated" }) : null,
  ]);
  const box = h("textarea", {
    id: "feedback-box",
    maxlength: "10000",
    placeholder: "What is wrong or right about this output? Saved as you type.",
    "aria-label": "Feedback on this run",
    oninput: function (event) { feedback.set(run.run_id, event.target.value); },
    onblur: function () { feedback.flush(); },
  });
  box.value = feedback.text(run.run_id);
  return [
    head,
    failedRun ? h("p", { class: "problem", text: run.outcome + (run.error ? ": " + run.error : "") }) : null,
    reused ? h("p", { class: "reused-note", text: "Reused from the result store: " + reusedFromText(reused) }) : null,
    h("h3", { text: "Prompt" }),
    run.prompt !== null ? h("pre", { class: "prompt-text", text: run.prompt }) : empty("No eval_metadata.json."),
    h("div", { class: "columns" }, [
      h("section", { class: "outputs" }, [h("h3", { text: "Outputs" }), renderFiles(run.outputs, run.outputs_omitted)]),
      h("section", { class: "previous" }, renderPrevious(run)),
    ]),
    h("h3", { text: "Grades" }),
    renderGrades(run.grading, run.run_id),
    h("h3", null, [h("label", { for: "feedback-box", text: "Your feedback" })]),
    box,
    renderActivation(run),
    h("h3", { text: "Run" }),
    renderFacts(run),
    renderTranscript(run),
  ];
}

function runLabel(entry) {
  const contaminated = entry.error && entry.error.indexOf("contaminated") === 0;
  const score = contaminated ? "CONTAMINATED" : entry.error ? "error" : entry.total !== null ? entry.passed + "/" + entry.total : "not graded";
  return entry.eval_name + " · " + entry.configuration + " · run " + entry.run_number + " · " + score;
}

function buildOutputsPanel(panel) {
  const runs = state.iteration.runs;
  panel.replaceChildren();
  if (!runs.length) {
    panel.append(empty("This iteration has no runs."));
    if (state.iteration.triggers) {
      panel.append(h("p", null, [
        "It measured triggers only: ",
        h("button", { id: "show-triggers", onclick: function () { selectTab("triggers"); }, text: "see the Triggers tab" }),
      ]));
    }
    return;
  }
  const select = h("select", {
    id: "run-select",
    "aria-label": "Run",
    onchange: function (event) { showRun(Number(event.target.value)); },
  });
  const options = document.createDocumentFragment();
  runs.forEach(function (entry, i) { options.append(h("option", { value: String(i), text: runLabel(entry) })); });
  select.append(options);
  const saveState = h("span", { class: "save-state", id: "save-state", role: "status" });
  feedback.onChange(function (kind, message) {
    saveState.className = "save-state" + (kind === "error" ? " error" : "");
    saveState.textContent = message;
  });
  append(panel, [
    h("div", { class: "runbar" }, [
      h("button", { id: "prev-run", title: "Previous run (←)", onclick: function () { step(-1); }, text: "← Prev" }),
      h("span", { class: "position", id: "run-position" }),
      h("button", { id: "next-run", title: "Next run (→)", onclick: function () { step(1); }, text: "Next →" }),
      select,
      h("span", { class: "spacer" }),
      saveState,
      STATIC
        ? h("button", { id: "download-feedback", class: "primary", onclick: function () { feedback.submitAll(); }, text: "Download feedback.json" })
        : h("button", { id: "submit-all", class: "primary", onclick: function () { feedback.submitAll(); }, text: "Submit all reviews" }),
    ]),
    state.iteration.feedback.problem ? h("p", { class: "problem", text: state.iteration.feedback.problem }) : null,
    h("article", { id: "run-view" }),
  ]);
}

function step(delta) {
  const next = state.index + delta;
  if (next >= 0 && next < state.iteration.runs.length) showRun(next);
}

async function showRun(index) {
  const runs = state.iteration.runs;
  const entry = runs[index];
  if (!entry) return;
  feedback.flush();
  state.index = index;
  const token = ++state.runToken;
  document.getElementById("run-position").textContent = "Run " + (index + 1) + " of " + runs.length;
  document.getElementById("run-select").value = String(index);
  document.getElementById("prev-run").disabled = index === 0;
  document.getElementById("next-run").disabled = index === runs.length - 1;
  writeHash();
  const view = document.getElementById("run-view");
  view.setAttribute("aria-busy", "true");
  try {
    const run = await source.run(state.iteration.number, entry.id, state.iteration.agent);
    if (token !== state.runToken) return;
    view.replaceChildren();
    append(view, renderRun(run));
    view.dataset.run = entry.id;
  } catch (error) {
    if (token !== state.runToken) return;
    view.replaceChildren(h("p", { class: "problem", text: "Could not load " + entry.id + ": " + error.message }));
  } finally {
    if (token === state.runToken) view.removeAttribute("aria-busy");
  }
}
`;
