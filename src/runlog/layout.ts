import { join } from "node:path";
import type { EvalId } from "../contracts/evals.js";

// The run folder, as every command writes and reads it:
// <workspace>/iteration-<N>/{iteration.json, triggers/, eval-<id>/{eval_metadata.json, <configuration>/run-<k>/}}
export const ITERATION_FILE = "iteration.json";
export const EVAL_METADATA_FILE = "eval_metadata.json";
export const TRIGGERS_DIR = "triggers";
/** At the workspace root: one row per iteration (per part of one of several agents or models), oldest first. */
export const HISTORY_FILE = "history.json";

// With several agents (`run --agent a,b`): <workspace>/iteration-<N>/{iteration.json (agents), matrix.json,
// benchmark.md, <agent>/…}, where each <agent>/ folder holds what a one-agent iteration holds.
export const MATRIX_FILE = "matrix.json";
export const BENCHMARK_MARKDOWN_FILE = "benchmark.md";

/** `<iteration>/<agent>`: one agent's iteration inside an iteration that ran several. */
export function agentIterationDir(iterationDir: string, agent: string): string {
  return join(iterationDir, agent);
}

/** The files of one run folder, by what they hold. */
export const RUN_FILES = {
  transcript: "transcript.jsonl",
  transcriptMarkdown: "transcript.md",
  /** The agent's events in the shape every adapter emits; what re-grading reads. */
  events: "events.jsonl",
  timing: "timing.json",
  grading: "grading.json",
  /** What the run did with the skill: what loaded, which of its files were opened, contamination. */
  activation: "activation.json",
  outputs: "outputs",
} as const;

/** skillgym's own file inside a run's outputs/; never one of the agent's outputs. */
export const METRICS_FILE = "metrics.json";

const ITERATION_FOLDER = /^iteration-(\d+)$/;
const RUN_FOLDER = /^run-(\d+)$/;

export function iterationDirName(n: number): string {
  return `iteration-${n}`;
}

export function iterationNumberOf(folder: string): number | undefined {
  const match = ITERATION_FOLDER.exec(folder);
  return match ? Number(match[1]) : undefined;
}

// Folders stay `eval-<the suite's id>` even where eval_metadata.json records a numeric eval_id for a string id.
export function evalDirName(id: string | number): string {
  return `eval-${String(id).replace(/[^A-Za-z0-9._-]/g, "_")}`;
}

export function isEvalDirName(folder: string): boolean {
  return folder.startsWith("eval-");
}

/** The eval id an `eval-<id>` folder names, when its eval_metadata.json cannot say. */
export function evalIdFromDirName(folder: string): EvalId {
  const raw = folder.slice("eval-".length);
  return /^-?\d+$/.test(raw) ? Number(raw) : raw;
}

export function runDirName(runNumber: number): string {
  return `run-${runNumber}`;
}

export function runNumberOf(folder: string): number | undefined {
  const match = RUN_FOLDER.exec(folder);
  return match ? Number(match[1]) : undefined;
}

/** `<iteration>/eval-<id>/<configuration>/run-<k>` */
export function runDir(
  iterationDir: string,
  evalId: string | number,
  configuration: string,
  runNumber: number,
): string {
  return join(iterationDir, evalDirName(evalId), configuration, runDirName(runNumber));
}

/** Where each file of a run folder lives. */
export function runPaths(dir: string) {
  const outputs = join(dir, RUN_FILES.outputs);
  return {
    transcript: join(dir, RUN_FILES.transcript),
    transcriptMarkdown: join(dir, RUN_FILES.transcriptMarkdown),
    events: join(dir, RUN_FILES.events),
    timing: join(dir, RUN_FILES.timing),
    grading: join(dir, RUN_FILES.grading),
    activation: join(dir, RUN_FILES.activation),
    outputs,
    metrics: join(outputs, METRICS_FILE),
  };
}
