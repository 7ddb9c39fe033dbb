import { createHash } from "node:crypto";
import { escapeHtml } from "../escape.js";
import type { StaticViewData } from "../view-model.js";
import { scriptActivation } from "./script-activation.js";
import { scriptAgents } from "./script-agents.js";
import { scriptBase } from "./script-base.js";
import { scriptBenchmark } from "./script-benchmark.js";
import { scriptCatalog } from "./script-catalog.js";
import { scriptFeedback } from "./script-feedback.js";
import { scriptJudges } from "./script-judges.js";
import { scriptLift } from "./script-lift.js";
import { scriptMain } from "./script-main.js";
import { scriptMarkdown } from "./script-markdown.js";
import { scriptOutputs } from "./script-outputs.js";
import { scriptOverTime } from "./script-over-time.js";
import { scriptTranscript } from "./script-transcript.js";
import { scriptTriggers } from "./script-triggers.js";
import { scriptTune } from "./script-tune.js";
import { viewerStyle } from "./style.js";

/** The page's code, one strict-mode function; the same for the server and for static files. */
export const viewerScript = `(function () {\n"use strict";\n${[
  scriptBase,
  scriptMarkdown,
  scriptTranscript,
  scriptFeedback,
  scriptActivation,
  scriptOutputs,
  scriptBenchmark,
  scriptTriggers,
  scriptJudges,
  scriptAgents,
  scriptCatalog,
  scriptLift,
  scriptOverTime,
  scriptTune,
  scriptMain,
].join("\n")}\n})();\n`;

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** The Content-Security-Policy the page runs under: only its own inline script, no remote anything. */
export function viewerPolicy(mode: "server" | "static"): string {
  return [
    "default-src 'none'",
    `script-src ${sha256(viewerScript)}`,
    "style-src 'unsafe-inline'",
    mode === "server" ? "img-src 'self' data:" : "img-src data:",
    mode === "server" ? "connect-src 'self'" : "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** JSON that can sit inside a <script> element: every `<` is escaped, so `</script>` in the data cannot end it. */
export function embeddableJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export interface PageOptions {
  title: string;
  /** Present for a static file: the data the page reads instead of calling the server. */
  data?: StaticViewData;
}

// The viewer's script holds no closing script tag (test/report/page.test.ts checks it), so it is inlined as it is.
export function renderViewerPage(options: PageOptions): string {
  const mode = options.data ? "static" : "server";
  const policy = options.data
    ? `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(viewerPolicy(mode))}">\n`
    : "";
  const data = options.data
    ? `<script type="application/json" id="skillgym-data">${embeddableJson(options.data)}</script>\n`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${policy}<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(options.title)}</title>
<style>${viewerStyle}</style>
</head>
<body>
<header class="top">
<div class="brand">skillgym<span class="skill" id="skill-name"></span></div>
<label>Iteration <select id="iteration-select" aria-label="Iteration"></select></label>
<span class="badge" id="sandbox-badge" title="" hidden></span>
<label id="agent-picker" hidden>Agent <select id="agent-select" aria-label="Agent"></select></label>
<nav class="tabs" role="tablist" aria-label="Views">
<button role="tab" id="tab-agents" aria-controls="panel-agents" aria-selected="false" hidden>Agents</button>
<button role="tab" id="tab-outputs" aria-controls="panel-outputs" aria-selected="true">Outputs</button>
<button role="tab" id="tab-benchmark" aria-controls="panel-benchmark" aria-selected="false">Benchmark</button>
<button role="tab" id="tab-triggers" aria-controls="panel-triggers" aria-selected="false">Triggers</button>
<button role="tab" id="tab-judges" aria-controls="panel-judges" aria-selected="false" hidden>Judges</button>
<button role="tab" id="tab-over-time" aria-controls="panel-over-time" aria-selected="false">Over time</button>
<button role="tab" id="tab-tune" aria-controls="panel-tune" aria-selected="false">Tune</button>
<button role="tab" id="tab-catalog" aria-controls="panel-catalog" aria-selected="false" hidden>Catalog</button>
</nav>
</header>
<div class="banner" id="banner" role="note" hidden></div>
<main>
<section id="panel-agents" role="tabpanel" aria-labelledby="tab-agents" hidden></section>
<section id="panel-outputs" role="tabpanel" aria-labelledby="tab-outputs"><p class="empty">Loading…</p></section>
<section id="panel-benchmark" role="tabpanel" aria-labelledby="tab-benchmark" hidden></section>
<section id="panel-triggers" role="tabpanel" aria-labelledby="tab-triggers" hidden></section>
<section id="panel-judges" role="tabpanel" aria-labelledby="tab-judges" hidden></section>
<section id="panel-over-time" role="tabpanel" aria-labelledby="tab-over-time" hidden></section>
<section id="panel-tune" role="tabpanel" aria-labelledby="tab-tune" hidden></section>
<section id="panel-catalog" role="tabpanel" aria-labelledby="tab-catalog" hidden></section>
</main>
${data}<script>${viewerScript}</script>
</body>
</html>
`;
}
