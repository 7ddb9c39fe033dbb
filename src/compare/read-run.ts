import { open, readdir, stat } from "node:fs/promises";
import * as path from "node:path";
import { TextDecoder } from "node:util";
import type { z } from "zod";
import { EvalMetadata } from "../contracts/evals.js";
import { Grading } from "../contracts/grading.js";
import { IterationRecord } from "../contracts/run-record.js";
import { SkillgymError } from "../errors.js";
import { readJsonFile } from "../suite/index.js";

/** One file the agent left in `outputs/`; binary files are named, never shown. */
export interface OutputFile {
  /** POSIX path relative to `outputs/`. */
  path: string;
  /** The text, clipped; undefined for binary files and files past the snapshot's budget. */
  content: string | undefined;
  binary: boolean;
  bytes: number;
  clipped: boolean;
}

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

export interface ReadRunOptions {
  maxFileChars?: number;
  maxTotalChars?: number;
  maxTranscriptChars?: number;
}

const RESERVED_OUTPUTS = new Set(["metrics.json"]);

export async function readRun(runDir: string, options: ReadRunOptions = {}): Promise<RunSnapshot> {
  const dir = path.resolve(runDir);
  await assertRunFolder(dir);
  const runLayout = /^run-\d+$/.test(path.basename(dir));
  const configuration = path.basename(runLayout ? path.dirname(dir) : dir);
  const evalDir = runLayout ? path.dirname(path.dirname(dir)) : path.dirname(dir);
  const transcript = await readTextIfPresent(path.join(dir, "transcript.md"));
  const grading = await readOptionalJson(path.join(dir, "grading.json"), Grading);
  const metadata = await readOptionalJson(path.join(evalDir, "eval_metadata.json"), EvalMetadata);
  const skillPath = await recordedSkillPath(path.dirname(evalDir), configuration);
  return {
    runDir: dir,
    configuration,
    evalDir,
    outputs: await readOutputs(path.join(dir, "outputs"), options),
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
  const outputs = await stat(path.join(dir, "outputs")).catch(() => undefined);
  const transcript = await stat(path.join(dir, "transcript.md")).catch(() => undefined);
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

async function readOutputs(outputsDir: string, options: ReadRunOptions): Promise<OutputFile[]> {
  const maxFileChars = options.maxFileChars ?? 20_000;
  let budget = options.maxTotalChars ?? 200_000;
  const files: OutputFile[] = [];
  for (const rel of await listFiles(outputsDir)) {
    if (RESERVED_OUTPUTS.has(rel)) continue;
    const file = await readOutputFile(
      path.join(outputsDir, ...rel.split("/")),
      rel,
      Math.min(maxFileChars, budget),
    );
    budget -= file.content?.length ?? 0;
    files.push(file);
  }
  return files;
}

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string, rel: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), childRel);
      else if (entry.isFile()) out.push(childRel);
    }
  }
  await walk(root, "");
  return out.sort();
}

// Reads at most a few bytes per character allowed, so a huge output never lands in memory whole.
async function readOutputFile(file: string, rel: string, maxChars: number): Promise<OutputFile> {
  const handle = await open(file, "r");
  try {
    const bytes = (await handle.stat()).size;
    const want = Math.min(bytes, Math.max(maxChars, 0) * 4 + 4);
    const buffer = Buffer.alloc(want);
    const { bytesRead } = await handle.read(buffer, 0, want, 0);
    const head = buffer.subarray(0, bytesRead);
    const text = decodeText(head);
    if (text === undefined) return { path: rel, content: undefined, binary: true, bytes, clipped: false };
    if (maxChars <= 0) return { path: rel, content: undefined, binary: false, bytes, clipped: true };
    const clipped = bytesRead < bytes || text.length > maxChars;
    return { path: rel, content: text.slice(0, maxChars), binary: false, bytes, clipped };
  } finally {
    await handle.close();
  }
}

function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes, { stream: true });
  } catch {
    return undefined;
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
  const open = lines.findIndex((line, i) => i > heading && /^`{3,}$/.test(line));
  if (open < 0) return undefined;
  const next = lines.findIndex((line, i) => i > heading && line.startsWith("## "));
  if (next >= 0 && next < open) return undefined;
  const close = lines.findIndex((line, i) => i > open && line === lines[open]);
  const body = lines.slice(open + 1, close < 0 ? undefined : close).join("\n");
  return body.trim() === "" ? undefined : body;
}

async function readTextIfPresent(file: string): Promise<string | undefined> {
  const handle = await open(file, "r").catch(() => undefined);
  if (!handle) return undefined;
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

async function readOptionalJson<S extends z.ZodType>(
  file: string,
  schema: S,
): Promise<z.output<S> | undefined> {
  const present = await stat(file).catch(() => undefined);
  if (!present) return undefined;
  const result = await readJsonFile(file, schema);
  const finding = result.findings[0];
  if (finding) {
    const where = finding.location ? `${file}: ${finding.location}` : file;
    throw new SkillgymError("BAD_INPUT", `${where}: ${finding.message}`, {
      file,
      ...(finding.hint ? { hint: finding.hint } : {}),
    });
  }
  return result.value;
}

// iteration.json says which skill each configuration ran with; anything unreadable just means "not known".
async function recordedSkillPath(
  iterationDir: string,
  configuration: string,
): Promise<string | null | undefined> {
  if (configuration === "without_skill") return null;
  const result = await readJsonFile(path.join(iterationDir, "iteration.json"), IterationRecord);
  if (!result.value) return undefined;
  if (configuration === "with_skill") return result.value.skill_path;
  if (configuration === "old_skill") return result.value.plan.baseline_skill_path;
  return undefined;
}
