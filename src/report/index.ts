export { escapeHtml } from "./escape.js";
export { type IterationView, readIterationView } from "./read-iteration.js";
export { renderStaticReport, writeStaticReport } from "./static-report.js";
