import { chmod, mkdir, open, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { TextDecoder } from "node:util";
import type { Redactor } from "../agents/redact.js";
import { errnoOf, workspaceError } from "../tree/fs-errors.js";
import { resolveInside } from "../tree/paths.js";
import { copyFileReplacing } from "./copy-tree.js";

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

/**
 * Copies every created or modified file of the workspace to the same relative path under `outputsDir`, with the
 * agent's credentials masked when a redactor is given.
 */
export async function collectOutputs(
  workspaceDir: string,
  changes: { created: readonly string[]; modified: readonly string[] },
  outputsDir: string,
  redactor?: Redactor,
): Promise<CollectedOutputs> {
  const changed = [...new Set([...changes.created, ...changes.modified])].sort();
  const collected: CollectedOutputs = { files: [], chars: 0, collisions: [] };
  try {
    await mkdir(outputsDir, { recursive: true });
    for (const file of changed) {
      const from = resolveInside(workspaceDir, file, "Changed file");
      const to = resolveInside(outputsDir, file, "Output file");
      const masking = redactor !== undefined && redactor.names.length > 0;
      const chars = masking ? await copyRedacted(from, to, redactor) : await copyPlain(from, to);
      if (chars === undefined) continue; // gone since the manifest was taken
      collected.files.push(file);
      collected.chars += chars;
      if (RESERVED_OUTPUT_FILES.includes(file)) collected.collisions.push(file);
    }
  } catch (error) {
    throw workspaceError(error, `Could not collect the outputs of ${workspaceDir}`);
  }
  return collected;
}

async function copyPlain(from: string, to: string): Promise<number | undefined> {
  const chars = await countChars(from);
  if (chars === undefined) return undefined;
  await mkdir(path.dirname(to), { recursive: true });
  await copyFileReplacing(from, to);
  return chars;
}

// Read whole: a value split across two chunks would otherwise slip through.
async function copyRedacted(from: string, to: string, redactor: Redactor): Promise<number | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(from, "r");
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return undefined;
    throw error;
  }
  let bytes: Buffer;
  let mode: number;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    mode = info.mode & 0o7777;
    bytes = redactor.bytes(await handle.readFile());
  } finally {
    await handle.close();
  }
  await mkdir(path.dirname(to), { recursive: true });
  // Never written through a link left at the destination.
  await rm(to, { recursive: true, force: true });
  await writeFile(to, bytes, { flag: "wx" });
  await chmod(to, mode);
  return charsOf(bytes);
}

function charsOf(bytes: Buffer): number {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  if (!decodes(decoder, bytes) || !decodes(decoder, undefined)) return bytes.length;
  let codePoints = 0;
  for (const byte of bytes) if ((byte & 0xc0) !== 0x80) codePoints++;
  return codePoints;
}

// UTF-8 code points are the bytes that do not continue a sequence (0b10xxxxxx), once the file proves valid UTF-8.
async function countChars(file: string): Promise<number | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "r");
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return undefined;
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const decoder = new TextDecoder("utf-8", { fatal: true });
    const buffer = Buffer.alloc(64 * 1024);
    let bytes = 0;
    let codePoints = 0;
    let valid = true;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      bytes += bytesRead;
      for (const byte of chunk) if ((byte & 0xc0) !== 0x80) codePoints++;
      if (valid) valid = decodes(decoder, chunk);
    }
    if (valid) valid = decodes(decoder, undefined);
    return valid ? codePoints : bytes;
  } finally {
    await handle.close();
  }
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
