export { escapeHtml } from "./escape.js";
export { openInBrowser } from "./open-browser.js";
export { startViewServer, type ViewServer, type ViewServerOptions } from "./server.js";
export { writeStaticReport } from "./static-report.js";
export { renderStaticViewer, type StaticViewOptions, writeStaticViewer } from "./static-viewer.js";
export { resolveViewTarget, type ViewTarget } from "./target.js";
export type {
  IterationDetail,
  RunDetail,
  RunEntry,
  StaticViewData,
  WorkspaceView,
} from "./view-model.js";
