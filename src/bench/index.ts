export { type AgentOutcome, buildAgentMatrix } from "./agent-matrix.js";
export { type BenchmarkOptions, buildBenchmark, chooseBaseline } from "./build-benchmark.js";
export type { EvalData, ExclusionKind, IterationData, RunData, RunExclusion } from "./model.js";
export { noiseOf } from "./noise.js";
export { benchmarkNotes, type NotesInput } from "./notes.js";
export { type EvalComparison, type PairedDelta, pairedDelta } from "./paired-delta.js";
export { readIteration } from "./read-iteration.js";
export { NOISE_FILE, noiseSpreadFor } from "./read-noise.js";
export { renderBenchmarkMarkdown } from "./render-markdown.js";
export { matrixCells, matrixHeader, renderMatrixMarkdown } from "./render-matrix.js";
export {
  type BootstrapOptions,
  type DeltaInterval,
  defaultBootstrap,
  mean,
  median,
  mulberry32,
  pairedBootstrap,
  type Summary,
  sampleStddev,
  summarize,
} from "./statistics.js";
export { type WrittenBenchmark, writeBenchmark } from "./write-benchmark.js";
