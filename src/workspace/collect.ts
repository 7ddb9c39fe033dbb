import { constants } from "node:fs";
import { type FileHandle, mkdir, open, rm } from "node:fs/promises";
import * as path from "node:path";
import { TextDecoder } from "node:util";
import type { Redactor } from "../redact.js";
import { errnoOf, workspaceError } from "../tree/fs-errors.js";
import { resolveInside } from "../tree/paths.js";
import {
  type CollectBounds,
  CollectStopped,
  checkDeadline,
  DEFAULT_OUTPUT_LIMITS,
  fileTooLarge,
  tooManyBytes,
} from "./output-limits.js";

export interface CollectedOutputs {
  /** Copied files, POSIX paths relative to the outputs folder, sorted. */
  files: string[];
  /**
   * Total size of the copied files: characters (Unicode code points) of files that decode as UTF-8, bytes of
   * the others (binary files).
   */
  chars: number;
  /** Agent files at names the caller writes itself (`metrics.json` at the outputs root); copied all the same. */
  collisions: string[];
}

/** Names at the root of `outputs/` that a run writes after collecting. */
export const RESERVED_OUTPUT_FILES: readonly string[] = ["metrics.json"];

export interface CollectOptions {
  /** Masks the agent's credentials in every copied file. */
  redactor?: Redactor;
  /** Stops the copy at a limit or at the deadline (the walk measured the files; they may grow since). */
  bounds?: CollectBounds;
}

/**
 * Copies every created or modified file of the workspace to the same relative path under `outputsDir`, a chunk at a
 * time, with the agent's credentials masked when a redactor is given. Throws `CollectStopped` when a file grows
 * past a limit or the deadline passes (what was copied stays; the caller clears it).
 */
export async function collectOutputs(
  workspaceDir: string,
  changes: { created: readonly string[]; modified: readonly string[] },
  outputsDir: string,
  options: CollectOptions = {},
): Promise<CollectedOutputs> {
  const changed = [...new Set([...changes.created, ...changes.modified])].sort();
  const collected: CollectedOutputs = { files: [], chars: 0, collisions: [] };
  const copy: CopyState = {
    // A redactor without secrets passes each chunk on as it is.
    redactor: options.redactor,
    bounds: options.bounds ?? { limits: DEFAULT_OUTPUT_LIMITS },
    bytes: 0,
    files: 0,
  };
  try {
    await mkdir(outputsDir, { recursive: true });
    for (const file of changed) {
      checkDeadline(copy.bounds.deadline, `copying ${file}`);
      const from = resolveInside(workspaceDir, file, "Changed file");
      // Stryker disable next-line StringLiteral: equivalent, the same path was refused inside the workspace one line above
      const to = resolveInside(outputsDir, file, "Output file");
      const chars = await copyFile(copy, from, to, file);
      if (chars === undefined) continue; // gone since the manifest was taken
      collected.files.push(file);
      copy.files++;
      collected.chars += chars;
      if (RESERVED_OUTPUT_FILES.includes(file)) collected.collisions.push(file);
    }
  } catch (error) {
    if (error instanceof CollectStopped) throw error;
    throw workspaceError(error, `Could not collect the outputs of ${workspaceDir}`);
  }
  return collected;
}

interface CopyState {
  redactor: Redactor | undefined;
  bounds: CollectBounds;
  /** Bytes read so far, all files together. */
  bytes: number;
  /** Files copied whole so far. */
  files: number;
}

const CHUNK = 64 * 1024;

// Neither a link put in the file's place since the walk nor a FIFO (whose open would wait forever) is read.
const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

async function copyFile(
  copy: CopyState,
  from: string,
  to: string,
  file: string,
): Promise<number | undefined> {
  let source: FileHandle;
  try {
    source = await open(from, readFlags);
  } catch (error) {
    const code = errnoOf(error);
    if (code === "ENOENT" || code === "ELOOP") return undefined;
    throw error;
  }
  const { limits, deadline } = copy.bounds;
  try {
    const info = await source.stat();
    if (!info.isFile()) return undefined;
    if (info.size > limits.fileBytes) throw fileTooLarge(file, info.size, limits);
    await mkdir(path.dirname(to), { recursive: true });
    // Never written through a link left at the destination.
    await rm(to, { recursive: true, force: true });
    const target = await open(to, "wx");
    try {
      const masking = copy.redactor?.byteStream();
      const counter = charCounter();
      const buffer = Buffer.alloc(CHUNK);
      let read = 0;
      for (;;) {
        checkDeadline(deadline, `copying ${file}`);
        const { bytesRead } = await source.read(buffer, 0, CHUNK, null);
        if (bytesRead === 0) break;
        read += bytesRead;
        copy.bytes += bytesRead;
        // It grew since it was measured: never read past a limit.
        if (read > limits.fileBytes) throw fileTooLarge(file, read, limits);
        if (copy.bytes > limits.totalBytes) throw tooManyBytes(copy.bytes, copy.files + 1, limits);
        const chunk = buffer.subarray(0, bytesRead);
        await writeAll(target, masking ? masking.push(chunk) : chunk, counter);
      }
      if (masking) await writeAll(target, masking.end(), counter);
      await target.chmod(info.mode & 0o7777);
      return counter.chars();
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

async function writeAll(target: FileHandle, bytes: Buffer, counter: CharCounter): Promise<void> {
  counter.add(bytes);
  await target.write(bytes);
}

interface CharCounter {
  add(bytes: Uint8Array): void;
  /** Code points when everything added was valid UTF-8, else bytes. */
  chars(): number;
}

// UTF-8 code points are the bytes that do not continue a sequence (0b10xxxxxx), once the file proves valid UTF-8.
function charCounter(): CharCounter {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let bytes = 0;
  let codePoints = 0;
  let valid = true;
  return {
    add(chunk) {
      bytes += chunk.length;
      for (const byte of chunk) if ((byte & 0xc0) !== 0x80) codePoints++;
      if (valid) valid = decodes(decoder, chunk);
    },
    chars() {
      if (valid) valid = decodes(decoder, undefined);
      return valid ? codePoints : bytes;
    },
  };
}

function decodes(decoder: TextDecoder, chunk: Uint8Array | undefined): boolean {
  try {
    if (chunk === undefined) decoder.decode();
    else decoder.decode(chunk, { stream: true });
    return true;
  } catch {
    return false;
  }
}
