export { catalogRunIdentity, PLAN_FILE as CATALOG_PLAN_FILE } from "./catalog-folder.js";
export { type CatalogMember, discoverCatalog } from "./discover.js";
export { type CatalogDryRun, planCatalog } from "./dry-run.js";
export { type CatalogMatrix, catalogMatrix, NONE, notRow } from "./matrix.js";
export { type CatalogRunSpec, planCatalogRuns } from "./plan.js";
export { renderCatalogMarkdown } from "./render-markdown.js";
export { catalogRunKeys } from "./reuse-catalog.js";
export {
  CATALOG_FILE,
  CATALOG_MARKDOWN,
  type CatalogOptions,
  type CatalogReporter,
  type CatalogSummary,
  runCatalog,
} from "./run-catalog.js";
