import { constants } from "node:fs";
import { copyFile, lstat, mkdir, readdir, realpath, rm } from "node:fs/promises";
import * as path from "node:path";
import { SkillgymError } from "../errors.js";
import { errnoOf } from "../tree/fs-errors.js";
import { resolveLink } from "../tree/links.js";
import { isAtOrUnder, relativeInside } from "../tree/paths.js";

/** Decides, from a POSIX path relative to the copied folder, whether an entry is left out (with all it holds). */
export type SkipRule = (relPosixPath: string, isDir: boolean) => boolean;

export interface CopyTreeOptions {
  skip?: SkipRule;
}

interface CopyContext {
  realRoot: string;
  skip: SkipRule | undefined;
  /** Where `dest` sits inside the source, relative to the real source root; never copied into itself. */
  destInSource: string | undefined;
}

/**
 * Copies regular files and folders from `src` over `dest`: files already there are replaced, folders merge.
 * File modes are kept. A symlink is replaced by what it points to when that lies inside `src`, and skipped
 * otherwise, so a copy never reaches outside the tree it was asked to copy. Other entries (sockets, FIFOs) are skipped.
 */
export async function copyTree(src: string, dest: string, options: CopyTreeOptions = {}): Promise<void> {
  const srcRoot = path.resolve(src);
  const destRoot = path.resolve(dest);
  const realRoot = await realpath(srcRoot);
  await mkdir(destRoot, { recursive: true });
  const destInSource = relativeInside(realRoot, await realpath(destRoot));
  if (destInSource === "") {
    throw new SkillgymError("WORKSPACE", `Cannot copy ${srcRoot} onto itself (${destRoot})`, {
      hint: "choose a workspace folder outside the folder being copied",
    });
  }
  const context: CopyContext = { realRoot, skip: options.skip, destInSource };
  await copyFolder(context, srcRoot, realRoot, destRoot, "", [realRoot]);
}

async function copyFolder(
  context: CopyContext,
  from: string,
  realFrom: string,
  to: string,
  relDir: string,
  ancestors: readonly string[],
): Promise<void> {
  // In the order readdir gives: every entry is copied, so none is needed.
  const entries = await readdir(from, { withFileTypes: true });
  for (const entry of entries) {
    const rel = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
    const source = path.join(from, entry.name);
    let realSource = path.join(realFrom, entry.name);
    let kind: "file" | "dir" | undefined;
    // Stryker disable next-line ConditionalExpression: equivalent, an entry that is no link resolves to its own real path and kind (only slower)
    if (entry.isSymbolicLink()) {
      const target = await linkTargetInside(context, source);
      // A link to a folder being copied would copy it into itself; the ancestors are folders, never a file's real path.
      if (target === undefined || ancestors.includes(target.real)) continue;
      realSource = target.real;
      kind = target.kind;
    } else if (entry.isDirectory()) {
      kind = "dir";
    } else if (entry.isFile()) {
      kind = "file";
    }
    if (kind === undefined) continue;
    const inSource = relativeInside(context.realRoot, realSource);
    if (
      context.destInSource !== undefined &&
      inSource !== undefined &&
      isAtOrUnder(inSource, context.destInSource)
    ) {
      continue;
    }
    if (context.skip?.(rel, kind === "dir")) continue;
    const destination = path.join(to, entry.name);
    if (kind === "dir") {
      await ensureDir(destination);
      await copyFolder(context, source, realSource, destination, rel, [...ancestors, realSource]);
    } else {
      await copyFileReplacing(source, destination);
    }
  }
}

async function linkTargetInside(
  context: CopyContext,
  link: string,
): Promise<{ real: string; kind: "file" | "dir" } | undefined> {
  const resolved = await resolveLink(context.realRoot, link);
  if (resolved.status !== "inside" || resolved.kind === "other") return undefined;
  return { real: resolved.real, kind: resolved.kind };
}

// A folder where a later layer had a file (or a link) replaces it; a link is never written through.
export async function ensureDir(dir: string): Promise<void> {
  // An error of the lstat other than a missing entry fails the mkdir below the same way.
  const info = await lstat(dir).catch(() => undefined);
  if (info?.isDirectory()) return;
  // Not a folder: a file or a link (removed, never followed), or nothing.
  await rm(dir, { force: true });
  await mkdir(dir, { recursive: true });
}

// A copy-on-write clone where the filesystem makes one (btrfs, XFS, APFS), so a large project costs little to copy;
// elsewhere an ordinary copy. Never a hard link: a write in the copy must never reach the original.
const COPY_MODE = constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE;

// Exclusive create first, so an existing file, folder or link at `to` is removed rather than written through.
export async function copyFileReplacing(from: string, to: string): Promise<void> {
  // Stryker disable next-line BlockStatement: equivalent, without the first try the removal below and the same copy follow
  try {
    await copyFile(from, to, COPY_MODE);
    return;
  } catch (error) {
    if (errnoOf(error) !== "EEXIST") throw error;
  }
  // The entry is there: the copy just failed on it (EEXIST).
  await rm(to, { recursive: true });
  await copyFile(from, to, COPY_MODE);
}
