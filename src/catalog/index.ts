export { type CatalogMember, discoverCatalog } from "./discover.js";
export { type CatalogMatrix, catalogMatrix, NONE, notRow } from "./matrix.js";
export { type CatalogRunSpec, planCatalogRuns } from "./plan.js";
export { renderCatalogMarkdown } from "./render-markdown.js";
export {
  CATALOG_FILE,
  type CatalogOptions,
  type CatalogReporter,
  type CatalogSummary,
  runCatalog,
} from "./run-catalog.js";
