// Browser code: the page's state, tabs, the address hash (so a reload keeps the place) and start-up.
export const scriptMain = `
const TABS = ["agents", "outputs", "benchmark", "triggers", "judges", "over-time", "tune", "catalog"];
const RENDERERS = { agents: renderAgents, outputs: null, benchmark: renderBenchmark, triggers: renderTriggers, judges: renderJudges, "over-time": renderOverTime, tune: renderTune, catalog: renderCatalog };
const state = { workspace: null, iteration: null, catalogs: null, index: 0, tab: "outputs", runToken: 0, rendered: {} };

function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  return { tab: params.get("tab"), iteration: params.get("iteration"), run: params.get("run"), agent: params.get("agent") };
}

function writeHash() {
  const params = new URLSearchParams();
  params.set("tab", state.tab);
  if (state.iteration) params.set("iteration", String(state.iteration.number));
  if (!state.iteration) { history.replaceState(null, "", "#" + params.toString()); return; }
  if (state.iteration && state.iteration.agent) params.set("agent", state.iteration.agent);
  const entry = state.iteration && state.iteration.runs[state.index];
  if (entry) params.set("run", entry.id);
  history.replaceState(null, "", "#" + params.toString());
}

function panelOf(tab) {
  return document.getElementById("panel-" + tab);
}

// The Agents tab exists only for an iteration that ran several agents, the Catalog tab only beside catalogs.
function hasCatalogs() {
  return Boolean(state.catalogs && state.catalogs.catalogs.length);
}

function tabShown(tab) {
  if (tab === "catalog") return hasCatalogs();
  if (!state.iteration) return false;
  if (tab === "judges") return Boolean(state.iteration.judges);
  return tab !== "agents" || Boolean(state.iteration.agents);
}

function selectTab(tab) {
  state.tab = TABS.indexOf(tab) === -1 || !tabShown(tab) ? (state.iteration ? "outputs" : "catalog") : tab;
  for (const name of TABS) {
    const button = document.getElementById("tab-" + name);
    const selected = name === state.tab;
    button.setAttribute("aria-selected", selected ? "true" : "false");
    button.tabIndex = selected ? 0 : -1;
    panelOf(name).hidden = !selected;
  }
  const render = RENDERERS[state.tab];
  if (render && !state.rendered[state.tab]) {
    render(panelOf(state.tab));
    state.rendered[state.tab] = true;
  }
  writeHash();
}

// Without a tab asked for, an iteration that only measured triggers (skillgym triggers) opens on them:
// they are what the user just ran, and its Outputs tab would be empty.
// An iteration of several agents opens on their matrix.
function startingTab(data, tab) {
  if (tab) return tab;
  if (data.agents) return "agents";
  return !data.runs.length && data.triggers ? "triggers" : "outputs";
}

function fillAgentPicker(data) {
  const picker = document.getElementById("agent-picker");
  const select = document.getElementById("agent-select");
  picker.hidden = !data.agents;
  document.getElementById("tab-agents").hidden = !data.agents;
  document.getElementById("tab-judges").hidden = !data.judges;
  select.replaceChildren();
  for (const name of data.agents || []) select.append(h("option", { value: name, text: name }));
  if (data.agent) select.value = data.agent;
}

async function openIteration(number, tab, runId, agent) {
  const tabBefore = state.tab;
  await feedback.flush();
  const data = await source.iteration(number, agent || null);
  // A tab the user picked while the iteration loaded wins over the one asked for at the start.
  if (state.tab !== tabBefore) tab = state.tab;
  state.iteration = data;
  state.rendered = {};
  feedback.load(data);
  document.getElementById("iteration-select").value = String(number);
  fillAgentPicker(data);
  const banner = document.getElementById("banner");
  banner.hidden = !data.simulated && !data.partial;
  banner.textContent = (data.partial ? "PARTIAL: " + data.partial + ". " : "") + (data.simulated
    ? "SIMULATED: these runs were answered by skillgym sim, a scripted stand-in, not a model. They test the suite, not the skill." +
      (data.no_sim_script
        ? " NO SIM SCRIPT: no sim-script.json was found, so every run only loaded the skill and answered 'Done' without writing a file; these pass rates mean nothing. See 'skillgym sim --help' and examples/*/evals/sim-script.json."
        : "")
    : "");
  const sandbox = document.getElementById("sandbox-badge");
  sandbox.hidden = data.sandbox === null || data.sandbox === undefined;
  sandbox.textContent = data.sandbox ? "SANDBOXED" : "NOT SANDBOXED";
  sandbox.title = data.sandbox
    ? "every agent run was inside the OS sandbox (--sandbox): its workspace, home and the model API only"
    : "the agent runs were plain processes: they could read the machine and reach the network (see docs/sandbox.md)";
  const found = runId ? data.runs.findIndex(function (r) { return r.id === runId; }) : -1;
  state.index = found === -1 ? 0 : found;
  buildOutputsPanel(panelOf("outputs"));
  selectTab(startingTab(data, tab));
  if (data.runs.length) await showRun(state.index);
}

function fillHeader(workspace) {
  document.getElementById("skill-name").textContent = workspace.skill_name || "";
  const select = document.getElementById("iteration-select");
  select.replaceChildren();
  for (const it of workspace.iterations) {
    if (workspace.shown.indexOf(it.number) === -1) continue;
    select.append(h("option", { value: String(it.number), text: it.name + (it.status && it.status !== "complete" ? " (" + it.status + ")" : "") }));
  }
  select.disabled = workspace.shown.length < 2;
  select.addEventListener("change", function () {
    openIteration(Number(select.value), state.tab === "outputs" ? null : state.tab).catch(fatal);
  });
  const agentSelect = document.getElementById("agent-select");
  agentSelect.addEventListener("change", function () {
    openIteration(state.iteration.number, state.tab === "agents" ? "outputs" : state.tab, null, agentSelect.value).catch(fatal);
  });
}

function fatal(error) {
  const main = document.querySelector("main");
  main.replaceChildren(h("div", { class: "fatal" }, [h("h2", { text: "The viewer could not load" }), h("p", { class: "problem", text: String(error && error.message ? error.message : error) })]));
}

function wireTabs() {
  for (const name of TABS) {
    document.getElementById("tab-" + name).addEventListener("click", function () { selectTab(name); });
  }
  document.querySelector(".tabs").addEventListener("keydown", function (event) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    event.preventDefault();
    event.stopPropagation();
    const shown = TABS.filter(tabShown);
    const next = shown[(shown.indexOf(state.tab) + (event.key === "ArrowRight" ? 1 : shown.length - 1)) % shown.length];
    selectTab(next);
    document.getElementById("tab-" + next).focus();
  });
  document.addEventListener("keydown", function (event) {
    if (state.tab !== "outputs" || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable], .tabs")) return;
    if (event.key === "ArrowLeft") {
      event.preventDefault();
      step(-1);
    } else if (event.key === "ArrowRight") {
      event.preventDefault();
      step(1);
    }
  });
  window.addEventListener("pagehide", function () { feedback.flush(); });
}

async function boot() {
  wireTabs();
  const workspace = await source.workspace();
  state.workspace = workspace;
  state.catalogs = await source.catalogs();
  document.getElementById("tab-catalog").hidden = !hasCatalogs();
  fillHeader(workspace);
  const wanted = readHash();
  const shown = workspace.shown;
  const number = shown.indexOf(Number(wanted.iteration)) !== -1 ? Number(wanted.iteration) : shown[shown.length - 1];
  // A workspace of catalogs only (skillgym catalog) opens on them; the iteration tabs have nothing to show.
  if (number === undefined && hasCatalogs()) {
    for (const name of TABS) if (name !== "catalog") document.getElementById("tab-" + name).hidden = true;
    document.getElementById("iteration-select").closest("label").hidden = true;
    selectTab("catalog");
    document.body.dataset.ready = "true";
    return;
  }
  if (number === undefined) throw new Error("no iteration to show");
  await openIteration(number, wanted.tab, wanted.run, wanted.agent);
  document.body.dataset.ready = "true";
}

boot().catch(fatal);
`;
