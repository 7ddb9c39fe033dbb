import { stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { Activation } from "../contracts/activation.js";
import { Benchmark } from "../contracts/benchmark.js";
import { EvalMetadata } from "../contracts/evals.js";
import { Grading } from "../contracts/grading.js";
import { Metrics } from "../contracts/metrics.js";
import { RunStatus } from "../contracts/run-record.js";
import { Timing } from "../contracts/timing.js";
import { EVAL_METADATA_FILE, runPaths } from "../runlog/layout.js";
import { type RunRef, runFolders, runIdOf } from "../runlog/list-runs.js";
import { findContradictions } from "./check-contradictions.js";
import type { ViewReader } from "./iteration-data.js";
import { defaultLimits, type OutputLimits, readOutputs } from "./output-files.js";
import { readTranscript } from "./run-transcript.js";
import { type IterationRef, previousIteration } from "./target.js";
import type { PreviousRun, RunDetail } from "./view-model.js";

export interface DetailOptions {
  /** The URL of a file under the workspace root; without it files are embedded (a static file). */
  urlFor?: (pathFromRoot: string) => string;
  limits?: Partial<OutputLimits>;
}

async function isDir(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

// The same eval and configuration in the latest earlier iteration: the same run number if it exists, else its first run.
async function previousRun(
  reader: ViewReader,
  iteration: IterationRef,
  ref: RunRef,
  options: DetailOptions,
): Promise<PreviousRun | null> {
  const before = previousIteration(reader.target, iteration.number);
  if (!before) return null;
  // One agent's run is compared with the same agent's in the earlier iteration, when that one ran it too.
  const agentDir = iteration.agent ? join(before.dir, iteration.agent) : undefined;
  const beforeDir = agentDir && (await isDir(agentDir)) ? agentDir : before.dir;
  const configurationDir = join(beforeDir, ref.evalDir, ref.configuration);
  const folders = await runFolders(configurationDir);
  const folder = folders.find((f) => f.runNumber === ref.runNumber) ?? folders[0];
  if (!folder) return null;
  const match = { id: `${ref.evalDir}/${ref.configuration}/${folder.name}` };
  const runDir = join(beforeDir, match.id);
  const [outputs, grading] = await Promise.all([
    readOutputs(runPaths(runDir).outputs, { root: reader.target.root, ...options }),
    reader.cache.value(runPaths(runDir).grading, Grading),
  ]);
  return {
    iteration: before.number,
    id: match.id,
    outputs: outputs.files,
    pass_rate: grading?.summary.pass_rate ?? null,
  };
}

/** Everything the Outputs tab shows about one run; undefined when the iteration has no such run folder. */
export async function readRunDetail(
  reader: ViewReader,
  iteration: IterationRef,
  ref: RunRef,
  options: DetailOptions = {},
): Promise<RunDetail | undefined> {
  const runDir = join(iteration.dir, ref.id);
  if (!(await isDir(runDir))) return undefined;
  const { cache } = reader;
  const files = runPaths(runDir);
  const [activation, benchmark] = await Promise.all([
    cache.value(files.activation, Activation),
    cache.value(join(iteration.dir, "benchmark.json"), Benchmark),
  ]);
  const [metadata, grading, timing, status, metrics, outputs, previous, transcript] = await Promise.all([
    cache.value(join(iteration.dir, ref.evalDir, EVAL_METADATA_FILE), EvalMetadata),
    cache.value(files.grading, Grading),
    cache.value(files.timing, Timing),
    cache.value(files.timing, RunStatus),
    cache.value(files.metrics, Metrics),
    readOutputs(files.outputs, { root: reader.target.root, ...options }),
    previousRun(reader, iteration, ref, options),
    readTranscript(
      files.transcriptMarkdown,
      options.limits?.maxTranscriptBytes ?? defaultLimits.maxTranscriptBytes,
    ),
  ]);
  const transcriptPath = relative(reader.target.root, files.transcriptMarkdown).split(sep).join("/");
  return {
    iteration: iteration.number,
    id: ref.id,
    run_id: runIdOf(ref.id),
    eval_id: metadata?.eval_id ?? null,
    eval_name: metadata?.eval_name ?? ref.evalDir,
    configuration: ref.configuration,
    run_number: ref.runNumber,
    prompt: metadata?.prompt ?? null,
    outcome: status?.outcome ?? null,
    error: status?.error ?? null,
    outputs: outputs.files,
    outputs_omitted: outputs.omitted,
    grading: grading
      ? {
          expectations: grading.expectations,
          contradictions: findContradictions(grading.expectations),
          summary: grading.summary,
          ...(grading.claims ? { claims: grading.claims } : {}),
          ...(grading.eval_feedback ? { eval_feedback: grading.eval_feedback } : {}),
          ...(grading.user_notes_summary ? { user_notes_summary: grading.user_notes_summary } : {}),
        }
      : null,
    timing: timing ?? null,
    metrics: metrics ?? grading?.execution_metrics ?? null,
    transcript,
    transcript_url: transcript && options.urlFor ? options.urlFor(transcriptPath) : null,
    previous,
    activation: activation ?? null,
    disclosure:
      benchmark?.disclosure?.find(
        (d) => String(d.eval_id) === String(metadata?.eval_id) && d.configuration === ref.configuration,
      ) ?? null,
  };
}
