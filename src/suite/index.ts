export {
  type DiscoveredSuite,
  type DiscoverOptions,
  type DiscoveryResult,
  type DiscoveryVia,
  discoverSuite,
} from "./discover.js";
export { type JsonFileResult, readJsonFile } from "./json-file.js";
export { type LoadSuiteOptions, type LoadSuiteResult, loadSuite } from "./load.js";
export type { Fixture, ResolvedEval, Suite } from "./model.js";
export { findProjectRoot } from "./project-root.js";
export { type ResolvedSuiteConditions, suiteConditions } from "./suite-conditions.js";
export { envPassedBy, sandboxAskedBy } from "./suite-settings.js";
export { toWorkspacePath, type WorkspacePath } from "./workspace-path.js";
