import { stat } from "node:fs/promises";
import * as path from "node:path";
import type { z } from "zod";
import { EvalMetadata } from "../contracts/evals.js";
import { Grading } from "../contracts/grading.js";
import { IterationRecord } from "../contracts/run-record.js";
import { SkillgymError } from "../errors.js";
import { readTextIfPresent } from "../runlog/atomic-write.js";
import { EVAL_METADATA_FILE, ITERATION_FILE, runNumberOf, runPaths } from "../runlog/layout.js";
import { type OutputFile, type ReadOutputsOptions, readOutputFiles } from "../runlog/output-files.js";
import { readRecord, readRecordIfValid } from "../runlog/read-record.js";

/** What a run folder holds, read once so that it can be shown to a judge. */
export interface RunSnapshot {
  runDir: string;
  /** `with_skill`, `without_skill`, `old_skill`, or whatever the folder is called. */
  configuration: string;
  /** The eval folder (holding eval_metadata.json) the run belongs to. */
  evalDir: string;
  outputs: OutputFile[];
  transcriptTail: string;
  /** The agent's last message, taken from the `## Result` section of transcript.md. */
  finalMessage: string | undefined;
  grading?: Grading;
  metadata?: EvalMetadata;
  /** The eval's prompt: from eval_metadata.json, else from the transcript's `## Prompt` section. */
  prompt: string | undefined;
  /** The skill the run used, as recorded in iteration.json; null for a run without a skill. */
  skillPath?: string | null;
}

export interface ReadRunOptions extends ReadOutputsOptions {
  maxTranscriptChars?: number;
}

export async function readRun(runDir: string, options: ReadRunOptions = {}): Promise<RunSnapshot> {
  const dir = path.resolve(runDir);
  await assertRunFolder(dir);
  const files = runPaths(dir);
  const runLayout = runNumberOf(path.basename(dir)) !== undefined;
  const configuration = path.basename(runLayout ? path.dirname(dir) : dir);
  const evalDir = runLayout ? path.dirname(path.dirname(dir)) : path.dirname(dir);
  const transcript = await readTextIfPresent(files.transcriptMarkdown);
  const grading = await readOptionalJson(files.grading, Grading);
  const metadata = await readOptionalJson(path.join(evalDir, EVAL_METADATA_FILE), EvalMetadata);
  const skillPath = await recordedSkillPath(path.dirname(evalDir), configuration);
  return {
    runDir: dir,
    configuration,
    evalDir,
    outputs: await readOutputFiles(files.outputs, options),
    transcriptTail: tail(transcript ?? "", options.maxTranscriptChars ?? 20_000),
    finalMessage: transcript === undefined ? undefined : finalMessageOf(transcript),
    prompt: metadata?.prompt ?? (transcript === undefined ? undefined : promptOf(transcript)),
    ...(grading ? { grading } : {}),
    ...(metadata ? { metadata } : {}),
    ...(skillPath !== undefined ? { skillPath } : {}),
  };
}

async function assertRunFolder(dir: string): Promise<void> {
  const hint = "pass a run folder such as <workspace>/iteration-1/eval-1/with_skill/run-1";
  const info = await stat(dir).catch(() => undefined);
  if (!info) throw new SkillgymError("BAD_INPUT", `${dir}: no such folder`, { hint, file: dir });
  if (!info.isDirectory()) throw new SkillgymError("BAD_INPUT", `${dir}: not a folder`, { hint, file: dir });
  const files = runPaths(dir);
  const outputs = await stat(files.outputs).catch(() => undefined);
  const transcript = await stat(files.transcriptMarkdown).catch(() => undefined);
  if (!outputs?.isDirectory() && !transcript?.isFile()) {
    throw new SkillgymError(
      "BAD_INPUT",
      `${dir}: not a run folder (it has neither outputs/ nor transcript.md)`,
      {
        hint,
        file: dir,
      },
    );
  }
}

function tail(text: string, max: number): string {
  if (text.length <= max) return text;
  return `… (${text.length - max} earlier characters not shown)\n${text.slice(text.length - max)}`;
}

/** The fenced text under the last `## Result` heading that skillgym's transcript.md ends with. */
export function finalMessageOf(transcript: string): string | undefined {
  const lines = transcript.split(/\r?\n/);
  return fencedAfter(lines, lines.lastIndexOf("## Result"));
}

function promptOf(transcript: string): string | undefined {
  const lines = transcript.split(/\r?\n/);
  return fencedAfter(lines, lines.indexOf("## Prompt"));
}

function fencedAfter(lines: readonly string[], heading: number): string | undefined {
  if (heading < 0) return undefined;
  const rest = lines.slice(heading + 1);
  // The first fence under the heading, unless another heading comes first.
  const open = rest.findIndex((line) => /^`{3,}$/.test(line) || line.startsWith("## "));
  const fence = rest[open];
  if (fence === undefined || fence.startsWith("## ")) return undefined;
  const inside = rest.slice(open + 1);
  const close = inside.indexOf(fence);
  const body = (close < 0 ? inside : inside.slice(0, close)).join("\n");
  return body.trim() === "" ? undefined : body;
}

async function readOptionalJson<S extends z.ZodType>(
  file: string,
  schema: S,
): Promise<z.output<S> | undefined> {
  const read = await readRecord(file, schema);
  if (read.state === "ok") return read.value;
  if (read.state === "missing") return undefined;
  const { finding } = read;
  const where = finding.location ? `${file}: ${finding.location}` : file;
  throw new SkillgymError("BAD_INPUT", `${where}: ${finding.message}`, {
    file,
    ...(finding.hint ? { hint: finding.hint } : {}),
  });
}

// iteration.json says which skill each configuration ran with; anything unreadable just means "not known".
async function recordedSkillPath(
  iterationDir: string,
  configuration: string,
): Promise<string | null | undefined> {
  if (configuration === "without_skill") return null;
  const record = await readRecordIfValid(path.join(iterationDir, ITERATION_FILE), IterationRecord);
  if (!record) return undefined;
  if (configuration === "with_skill") return record.skill_path;
  if (configuration === "old_skill") return record.plan.baseline_skill_path;
  return undefined;
}
