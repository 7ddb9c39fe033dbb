import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { TextDecoder } from "node:util";
import { METRICS_FILE } from "./layout.js";

/** A file the agent left in a run's `outputs/` folder. */
export interface OutputPath {
  /** POSIX path relative to `outputs/`. */
  path: string;
  absolute: string;
}

/** One file the agent left in `outputs/`, read; binary files are named, never shown. */
export interface OutputFile {
  /** POSIX path relative to `outputs/`. */
  path: string;
  /** The text, clipped; undefined for binary files and files past the read's budget. */
  content: string | undefined;
  binary: boolean;
  bytes: number;
  clipped: boolean;
}

export interface ReadOutputsOptions {
  maxFileChars?: number;
  maxTotalChars?: number;
}

/**
 * The agent's files in an `outputs/` folder, by path; skillgym's metrics.json is left out. Regular files only: a
 * symlink an agent left there could point anywhere on the machine. None when the folder does not exist.
 */
export async function listOutputFiles(outputsDir: string): Promise<OutputPath[]> {
  const found: OutputPath[] = [];
  async function walk(dir: string, rel: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walk(join(dir, entry.name), childRel);
      else if (entry.isFile() && childRel !== METRICS_FILE)
        found.push({ path: childRel, absolute: join(dir, entry.name) });
    }
  }
  await walk(outputsDir, "");
  // Stryker disable next-line EqualityOperator: equivalent, paths are unique: no two compare equal
  return found.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Folder by folder, each by name with numbers in order (`file2` before `file10`): the order a person browses in. */
export function byBrowsingOrder(a: OutputPath, b: OutputPath): number {
  const left = a.path.split("/");
  const right = b.path.split("/");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const order = (left[i] as string).localeCompare(right[i] as string, "en", { numeric: true });
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

export async function readHead(file: string, bytes: number): Promise<{ head: Buffer; size: number }> {
  const handle = await open(file, "r");
  try {
    const size = (await handle.stat()).size;
    // Stryker disable next-line MethodExpression: equivalent, only the bytes read are returned; the bound keeps a small file's buffer small
    const buffer = Buffer.alloc(Math.min(bytes, size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { head: buffer.subarray(0, bytesRead), size };
  } finally {
    await handle.close();
  }
}

/** Every output file's text, clipped per file and in total, so that it can be shown to a judge. */
export async function readOutputFiles(
  outputsDir: string,
  options: ReadOutputsOptions = {},
): Promise<OutputFile[]> {
  const maxFileChars = options.maxFileChars ?? 20_000;
  let budget = options.maxTotalChars ?? 200_000;
  const files: OutputFile[] = [];
  for (const found of await listOutputFiles(outputsDir)) {
    const file = await readOutputFile(found, Math.min(maxFileChars, budget));
    budget -= file.content?.length ?? 0;
    files.push(file);
  }
  return files;
}

// Reads at most a few bytes per character allowed, so a huge output never lands in memory whole.
async function readOutputFile(found: OutputPath, maxChars: number): Promise<OutputFile> {
  const { head, size: bytes } = await readHead(found.absolute, Math.max(maxChars, 0) * 4 + 4);
  const text = decodeText(head);
  const rel = found.path;
  if (text === undefined) return { path: rel, content: undefined, binary: true, bytes, clipped: false };
  if (maxChars <= 0) return { path: rel, content: undefined, binary: false, bytes, clipped: true };
  // Stryker disable next-line ConditionalExpression: equivalent, a head cut short (4 bytes a character, and 4 more) decodes to more than maxChars characters
  const clipped = head.length < bytes || text.length > maxChars;
  return { path: rel, content: text.slice(0, maxChars), binary: false, bytes, clipped };
}

function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes, { stream: true });
  } catch {}
  return undefined;
}
