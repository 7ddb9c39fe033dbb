import { z } from "zod";
import { Activation } from "./activation.js";
import { Analysis } from "./analysis.js";
import { Benchmark } from "./benchmark.js";
import { CatalogResults } from "./catalog.js";
import { Comparison } from "./comparison.js";
import { PriorConversation } from "./context.js";
import { DiffReport } from "./diff.js";
import { EvalMetadata, EvalsFile, TriggersFile } from "./evals.js";
import { Feedback } from "./feedback.js";
import { Grading } from "./grading.js";
import { IterationState } from "./iteration-state.js";
import { JudgesReport } from "./judges.js";
import { AgentMatrix, AgentsIterationRecord } from "./matrix.js";
import { Metrics } from "./metrics.js";
import { NoiseReport } from "./noise.js";
import { OptimizeResults } from "./optimize-results.js";
import { RunHistory } from "./run-history.js";
import { IterationRecord, TriggerRun } from "./run-record.js";
import { SimScript } from "./sim-script.js";
import { Timing } from "./timing.js";
import { TriggerResults } from "./trigger-results.js";

/** Every file format skillgym reads or writes, by name. */
export const formats = {
  evals: EvalsFile,
  activation: Activation,
  triggers: TriggersFile,
  "eval-metadata": EvalMetadata,
  grading: Grading,
  timing: Timing,
  metrics: Metrics,
  benchmark: Benchmark,
  diff: DiffReport,
  noise: NoiseReport,
  comparison: Comparison,
  analysis: Analysis,
  // skill-creator's history.json with the optional columns `run` adds; the tune loop's and skill-creator's parse too.
  history: RunHistory,
  feedback: Feedback,
  judges: JudgesReport,
  "trigger-results": TriggerResults,
  // A trigger run's trigger.json (`triggers/query-<i>/run-<k>/`).
  "trigger-run": TriggerRun,
  catalog: CatalogResults,
  "iteration-state": IterationState,
  iteration: IterationRecord,
  "agents-iteration": AgentsIterationRecord,
  matrix: AgentMatrix,
  "sim-script": SimScript,
  context: PriorConversation,
  "optimize-results": OptimizeResults,
} as const;
export type FormatName = keyof typeof formats;

export const formatNames = Object.keys(formats) as FormatName[];

// The schema of the file as written on disk (the input side: aliases and defaults not yet applied).
export function jsonSchemaOf(name: FormatName): object {
  const schema: z.ZodType = formats[name];
  const { $schema, ...rest } = z.toJSONSchema(schema, { io: "input" });
  return { $schema, title: `skillgym ${name}`, ...rest };
}
