import { createHash } from "node:crypto";
import { lstat, open, opendir } from "node:fs/promises";
import * as path from "node:path";
import { errnoOf, workspaceError } from "../tree/fs-errors.js";
import { isAtOrUnder } from "../tree/paths.js";
import type { Manifest, ManifestDiff, ManifestEntry, ManifestOptions } from "./manifest.js";
import {
  type CollectBounds,
  CollectStopped,
  checkDeadline,
  fileTooLarge,
  tooManyBytes,
  tooManyFiles,
} from "./output-limits.js";

/** What a run changed, measured by `lstat` alone before anything was read. */
export interface ScannedChanges extends ManifestDiff {
  /** Apparent size (`st_size`) of every created or modified file, by its POSIX path. */
  sizes: Map<string, number>;
}

interface Tally {
  before: Manifest;
  exclude: readonly string[];
  bounds: CollectBounds;
  seen: Set<string>;
  /** New files, and known ones whose size or modification time moved, with their size. */
  touched: Map<string, number>;
  bytes: number;
}

/**
 * The files a run created, modified or deleted, against the manifest taken before it. The walk stats each entry
 * and stops as soon as the new or touched files are too many, too large or too big together (a sparse file counts
 * at its full length), or the deadline passes; only then are the touched files of unchanged size hashed, each
 * under the largest-file limit, to tell a real change from a new modification time.
 */
export async function scanChanges(
  dir: string,
  before: Manifest,
  bounds: CollectBounds,
  options: ManifestOptions = {},
): Promise<ScannedChanges> {
  const tally: Tally = {
    before,
    // Stryker disable next-line ArrayDeclaration: equivalent, it would leave out only a path named "Stryker was here"
    exclude: (options.exclude ?? []).map((p) => p.replace(/^(\.\/)+/, "").replace(/\/+$/, "")),
    bounds,
    seen: new Set(),
    touched: new Map(),
    bytes: 0,
  };
  const root = path.resolve(dir);
  try {
    await walk(tally, root, "");
    const changes: ScannedChanges = { created: [], modified: [], deleted: [], sizes: new Map() };
    for (const [file, size] of tally.touched) {
      const previous = before.get(file);
      if (previous === undefined) changes.created.push(file);
      else if (await contentChanged(root, file, size, previous, bounds)) changes.modified.push(file);
      else continue;
      changes.sizes.set(file, size);
    }
    for (const file of before.keys()) if (!tally.seen.has(file)) changes.deleted.push(file);
    changes.created.sort();
    changes.modified.sort();
    changes.deleted.sort();
    return changes;
  } catch (error) {
    if (error instanceof CollectStopped) throw error;
    throw workspaceError(error, `Could not list the workspace ${dir}`);
  }
}

async function walk(tally: Tally, dir: string, relDir: string): Promise<void> {
  const folder = await opendir(dir);
  // Entries come as the file system lists them, a batch at a time: a huge folder is never read whole.
  for await (const entry of folder) {
    checkDeadline(tally.bounds.deadline, `listing ${relDir || "the workspace"}`);
    const rel = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
    if (tally.exclude.some((prefix) => isAtOrUnder(rel, prefix))) continue;
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) await walk(tally, abs, rel);
    else await visitFile(tally, abs, rel);
  }
}

async function visitFile(tally: Tally, abs: string, rel: string): Promise<void> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(abs);
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return; // removed while listing
    throw error;
  }
  if (!info.isFile()) return;
  const previous = tally.before.get(rel);
  tally.seen.add(rel);
  if (previous !== undefined && previous.size === info.size && previous.mtimeMs === info.mtimeMs) return;
  const { limits } = tally.bounds;
  tally.touched.set(rel, info.size);
  tally.bytes += info.size;
  if (info.size > limits.fileBytes) throw fileTooLarge(rel, info.size, limits);
  if (tally.touched.size > limits.files) throw tooManyFiles(limits);
  if (tally.bytes > limits.totalBytes) throw tooManyBytes(tally.bytes, tally.touched.size, limits);
}

// A file of another size has changed; one of the same size is hashed, since a new modification time alone is no change.
async function contentChanged(
  root: string,
  file: string,
  size: number,
  previous: ManifestEntry,
  bounds: CollectBounds,
): Promise<boolean> {
  // Stryker disable next-line ConditionalExpression: equivalent, a shortcut: hashing finds a file of another size changed too
  if (previous.size !== size) return true;
  return (await hashFile(path.join(root, ...file.split("/")), file, bounds)) !== previous.hash;
}

async function hashFile(file: string, rel: string, bounds: CollectBounds): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "r");
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return undefined;
    throw error;
  }
  try {
    const hash = createHash("sha256");
    const buffer = Buffer.alloc(256 * 1024);
    let read = 0;
    for (;;) {
      checkDeadline(bounds.deadline, `hashing ${rel}`);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      read += bytesRead;
      // It grew since it was measured: never read past the limit.
      if (read > bounds.limits.fileBytes) throw fileTooLarge(rel, read, bounds.limits);
      hash.update(buffer.subarray(0, bytesRead));
    }
    return hash.digest("hex");
  } finally {
    await handle.close();
  }
}
