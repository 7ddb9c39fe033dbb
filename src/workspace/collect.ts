import { mkdir, open } from "node:fs/promises";
import * as path from "node:path";
import { TextDecoder } from "node:util";
import { copyFileReplacing } from "./copy-tree.js";
import { errnoOf, workspaceError } from "./fs-errors.js";
import { resolveInside } from "./paths.js";

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

/** Copies every created or modified file of the workspace to the same relative path under `outputsDir`. */
export async function collectOutputs(
  workspaceDir: string,
  changes: { created: readonly string[]; modified: readonly string[] },
  outputsDir: string,
): Promise<CollectedOutputs> {
  const changed = [...new Set([...changes.created, ...changes.modified])].sort();
  const collected: CollectedOutputs = { files: [], chars: 0, collisions: [] };
  try {
    await mkdir(outputsDir, { recursive: true });
    for (const file of changed) {
      const from = resolveInside(workspaceDir, file, "Changed file");
      const to = resolveInside(outputsDir, file, "Output file");
      const chars = await countChars(from);
      if (chars === undefined) continue; // gone since the manifest was taken
      await mkdir(path.dirname(to), { recursive: true });
      await copyFileReplacing(from, to);
      collected.files.push(file);
      collected.chars += chars;
      if (RESERVED_OUTPUT_FILES.includes(file)) collected.collisions.push(file);
    }
  } catch (error) {
    throw workspaceError(error, `Could not collect the outputs of ${workspaceDir}`);
  }
  return collected;
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
