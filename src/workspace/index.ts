export {
  type CollectedOutputs,
  type CollectOptions,
  collectOutputs,
  RESERVED_OUTPUT_FILES,
} from "./collect.js";
export { type CopyTreeOptions, copyTree, type SkipRule } from "./copy-tree.js";
export { loadProjectSkip, type ProjectSkipOptions, SKIPPED_FOLDER_NAMES } from "./ignore-rules.js";
export {
  diffManifest,
  type Manifest,
  type ManifestDiff,
  type ManifestEntry,
  type ManifestOptions,
  takeManifest,
} from "./manifest.js";
export {
  COLLECT_FLOOR_MS,
  type CollectBounds,
  CollectStopped,
  collectDeadline,
  DEFAULT_OUTPUT_LIMITS,
  type Deadline,
  formatBytes,
  type OutputLimits,
  parseByteSize,
} from "./output-limits.js";
export { renameSkillInFrontmatter } from "./rename-skill.js";
export { type ScannedChanges, scanChanges } from "./scan-changes.js";
export { type FixtureStaging, type SkillInstall, stageWorkspace, type WorkspacePlan } from "./stage.js";
