export {
  jsonText,
  readJsonIfPresent,
  readTextIfPresent,
  writeJson,
  writeTextAtomically,
  writeUnderFreeName,
} from "./atomic-write.js";
export {
  agentIterationDir,
  BENCHMARK_MARKDOWN_FILE,
  EVAL_METADATA_FILE,
  evalDirName,
  evalIdFromDirName,
  ITERATION_FILE,
  isEvalDirName,
  iterationDirName,
  iterationNumberOf,
  MATRIX_FILE,
  METRICS_FILE,
  RUN_FILES,
  runDir,
  runDirName,
  runNumberOf,
  runPaths,
  TRIGGERS_DIR,
} from "./layout.js";
export {
  configurationFolders,
  evalFolders,
  iterationNumbers,
  listRuns,
  parseRunId,
  type RunRef,
  runFolders,
  runIdOf,
} from "./list-runs.js";
export {
  byBrowsingOrder,
  listOutputFiles,
  type OutputFile,
  type OutputPath,
  type ReadOutputsOptions,
  readHead,
  readOutputFiles,
} from "./output-files.js";
export {
  brokenRecordText,
  type RecordRead,
  readRecord,
  readRecordIfValid,
} from "./read-record.js";
export { createJsonCache, type JsonCache, type JsonRead } from "./record-cache.js";
