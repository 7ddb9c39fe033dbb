import { createHash } from "node:crypto";
import { open, readdir } from "node:fs/promises";
import * as path from "node:path";
import { errnoOf, workspaceError } from "../tree/fs-errors.js";
import { isAtOrUnder } from "../tree/paths.js";

export interface ManifestEntry {
  size: number;
  mtimeMs: number;
  /** sha256 of the content, hex. */
  hash: string;
}

/** Regular files of a folder by POSIX path relative to it. Symlinks are neither followed nor listed. */
export type Manifest = Map<string, ManifestEntry>;

export interface ManifestOptions {
  /** Relative POSIX prefixes left out with everything under them, e.g. `.claude/skills`. */
  exclude?: readonly string[];
}

export interface ManifestDiff {
  created: string[];
  modified: string[];
  deleted: string[];
}

const streamAbove = 4 * 1024 * 1024;

export async function takeManifest(dir: string, options: ManifestOptions = {}): Promise<Manifest> {
  // Stryker disable next-line ArrayDeclaration: equivalent, it would leave out only a path named "Stryker was here"
  const exclude = (options.exclude ?? []).map((p) => p.replace(/^(\.\/)+/, "").replace(/\/+$/, ""));
  const manifest: Manifest = new Map();
  try {
    await addFolder(manifest, path.resolve(dir), "", exclude);
  } catch (error) {
    throw workspaceError(error, `Could not list the workspace ${dir}`);
  }
  return manifest;
}

/** Created, modified (content changed) and deleted files, each sorted; a new mtime alone is no modification. */
export function diffManifest(before: Manifest, after: Manifest): ManifestDiff {
  const created: string[] = [];
  const modified: string[] = [];
  const deleted: string[] = [];
  for (const [file, entry] of after) {
    const previous = before.get(file);
    if (previous === undefined) created.push(file);
    else if (previous.hash !== entry.hash) modified.push(file);
  }
  for (const file of before.keys()) {
    if (!after.has(file)) deleted.push(file);
  }
  return { created: created.sort(), modified: modified.sort(), deleted: deleted.sort() };
}

async function addFolder(
  manifest: Manifest,
  dir: string,
  relDir: string,
  exclude: readonly string[],
): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    const rel = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
    if (exclude.some((prefix) => isAtOrUnder(rel, prefix))) continue;
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      await addFolder(manifest, abs, rel, exclude);
    } else if (entry.isFile()) {
      const summary = await summarize(abs);
      if (summary !== undefined) manifest.set(rel, summary);
    }
  }
}

async function summarize(file: string): Promise<ManifestEntry | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "r");
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return undefined; // removed while listing
    throw error;
  }
  try {
    const info = await handle.stat();
    const hash = createHash("sha256");
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, both ways hash the same bytes; streaming only bounds the memory
    if (info.size <= streamAbove) {
      hash.update(await handle.readFile());
    } else {
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent, the finally below closes the handle either way and a second close does nothing
      for await (const chunk of handle.createReadStream({ autoClose: false })) hash.update(chunk as Buffer);
    }
    return { size: info.size, mtimeMs: info.mtimeMs, hash: hash.digest("hex") };
  } finally {
    await handle.close();
  }
}
