import { createHash } from "node:crypto";
import { escapeHtml } from "./escape.js";

// The trigger-query review page: a static shell; its script fetches the rows and builds them with textContent and
// input values only, so no query can become markup.
const triggersScript = `"use strict";
const rows = document.getElementById("rows");
const status = document.getElementById("status");
function say(text, kind) { status.textContent = text; status.dataset.kind = kind; }
function addRow(query, shouldTrigger) {
  const tr = document.createElement("tr");
  const queryCell = document.createElement("td");
  const input = document.createElement("input");
  input.type = "text"; input.className = "query"; input.value = query; input.setAttribute("aria-label", "query");
  queryCell.appendChild(input);
  const flagCell = document.createElement("td");
  const box = document.createElement("input");
  box.type = "checkbox"; box.className = "should-trigger"; box.checked = shouldTrigger;
  box.setAttribute("aria-label", "should trigger");
  flagCell.appendChild(box);
  const actionCell = document.createElement("td");
  const remove = document.createElement("button");
  remove.type = "button"; remove.className = "delete"; remove.textContent = "Delete";
  remove.addEventListener("click", () => { tr.remove(); count(); });
  actionCell.appendChild(remove);
  tr.append(queryCell, flagCell, actionCell);
  rows.appendChild(tr);
  box.addEventListener("change", count);
  return input;
}
function collect() {
  return [...rows.querySelectorAll("tr")].map((tr) => ({
    query: tr.querySelector("input.query").value,
    should_trigger: tr.querySelector("input.should-trigger").checked,
  }));
}
function count() {
  const all = collect();
  const yes = all.filter((r) => r.should_trigger).length;
  document.getElementById("counts").textContent = all.length + " queries: " + yes + " should trigger, " + (all.length - yes) + " should not";
}
async function load() {
  const answer = await fetch("/api/triggers");
  const body = await answer.json();
  document.getElementById("file").textContent = body.file || "";
  if (!answer.ok) { say(body.error || "could not load", "error"); return; }
  for (const row of body.triggers) addRow(row.query, row.should_trigger);
  count();
}
async function save() {
  say("saving…", "busy");
  const answer = await fetch("/api/triggers", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(collect()),
  });
  const body = await answer.json().catch(() => ({}));
  if (answer.ok) say("saved " + body.count + " queries", "ok");
  else say("not saved: " + (body.error || answer.status), "error");
}
document.getElementById("add").addEventListener("click", () => { addRow("", true).focus(); count(); });
document.getElementById("save").addEventListener("click", () => { void save(); });
load().then(() => { document.body.dataset.ready = "true"; }, (e) => { say(String(e), "error"); document.body.dataset.ready = "true"; });
`;

const triggersStyle = `body { font: 14px/1.4 system-ui, sans-serif; margin: 2rem; color: #1a1a1a; }
table { border-collapse: collapse; width: 100%; max-width: 70rem; }
td, th { padding: .3rem .5rem; border-bottom: 1px solid #ddd; text-align: left; }
input.query { width: 100%; box-sizing: border-box; font: inherit; }
#status[data-kind=error] { color: #b00020; } #status[data-kind=ok] { color: #0a7a2f; }
.bar { margin: 1rem 0; display: flex; gap: .75rem; align-items: center; }
#file { color: #555; font-family: monospace; }`;

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

export function triggersPolicy(): string {
  return [
    "default-src 'none'",
    `script-src ${sha256(triggersScript)}`,
    `style-src ${sha256(triggersStyle)}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function renderTriggersPage(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${triggersStyle}</style>
</head>
<body>
<h1>Trigger queries</h1>
<p id="file"></p>
<p>Edit a query, tick whether the skill should trigger on it, delete or add rows, then save to triggers.json.</p>
<p id="counts"></p>
<table>
<thead><tr><th>Query</th><th>Should trigger</th><th></th></tr></thead>
<tbody id="rows"></tbody>
</table>
<div class="bar"><button type="button" id="add">Add query</button><button type="button" id="save">Save</button><span id="status" role="status"></span></div>
<script>${triggersScript}</script>
</body>
</html>
`;
}
