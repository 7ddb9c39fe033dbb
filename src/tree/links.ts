import { lstat, readdir, readlink, realpath, stat } from "node:fs/promises";
import * as path from "node:path";
import { errnoOf } from "./fs-errors.js";
import { relativeInside } from "./paths.js";

export type LinkResolution =
  | { status: "inside"; target: string; real: string; kind: "file" | "dir" | "other" }
  | { status: "outside"; target: string; real: string }
  | { status: "loop"; target: string }
  | { status: "dangling"; target: string };

/** A link that leaves the folder being read, or one that loops back on itself or an ancestor folder. */
export interface LinkProblem {
  /** POSIX path of the link, relative to the folder being read. */
  path: string;
  /** What the link says it points to, as written. */
  target: string;
  problem: "outside" | "loop";
}

// One rule for every reader: a link whose real target stays inside `realRoot` stands for that target; no other is followed.
export async function resolveLink(realRoot: string, link: string): Promise<LinkResolution> {
  const target = await readlink(link).catch(() => "");
  let real: string;
  try {
    real = await realpath(link);
  } catch (error) {
    return errnoOf(error) === "ELOOP" ? { status: "loop", target } : { status: "dangling", target };
  }
  if (relativeInside(realRoot, real) === undefined) return { status: "outside", target, real };
  const info = await stat(real);
  return {
    status: "inside",
    target,
    real,
    kind: info.isDirectory() ? "dir" : info.isFile() ? "file" : "other",
  };
}

/** How a link problem reads in a message: `"a/b" links to /etc (outside ...)`. */
export function describeLink(problem: LinkProblem, folder: string): string {
  return problem.problem === "outside"
    ? `${JSON.stringify(problem.path)} is a link to ${problem.target}, outside ${folder}; it is never followed, copied or packaged`
    : `${JSON.stringify(problem.path)} is a link to ${problem.target}, which loops back on itself; it is not followed`;
}

export interface TreeFile {
  /** POSIX path relative to the root, NFC-normalised, through link names as they appear. */
  path: string;
  absolutePath: string;
  mode: number;
}

/** Decides whether an entry is left out; `absolutePath` is undefined for a link leaving the root (never looked into). */
export type TreeSkip = (
  rel: string,
  isDir: boolean,
  absolutePath: string | undefined,
) => boolean | Promise<boolean>;

export interface TreeWalk {
  files: TreeFile[];
  /** Entries the skip rule left out, folders with a trailing `/`, sorted. */
  leftOut: string[];
  problems: LinkProblem[];
}

/** Lists the regular files under `root` by the one link rule, reporting links that leave it or loop. */
export async function walkTree(root: string, skip?: TreeSkip): Promise<TreeWalk> {
  const realRoot = await realpath(root);
  const walk: TreeWalk = { files: [], leftOut: [], problems: [] };
  await walkFolder({ realRoot, skip, walk }, path.resolve(root), realRoot, "", [realRoot]);
  // Stryker disable next-line EqualityOperator: equivalent, paths in one walk are unique: no two compare equal
  const byPath = (a: string, b: string) => (a < b ? -1 : 1);
  walk.files.sort((a, b) => byPath(a.path, b.path));
  walk.leftOut.sort(byPath);
  walk.problems.sort((a, b) => byPath(a.path, b.path));
  return walk;
}

interface WalkContext {
  realRoot: string;
  skip: TreeSkip | undefined;
  walk: TreeWalk;
}

async function walkFolder(
  context: WalkContext,
  dir: string,
  realDir: string,
  prefix: string,
  ancestors: readonly string[],
): Promise<void> {
  const { walk, skip } = context;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = `${prefix}${entry.name.normalize("NFC")}`;
    const absolutePath = path.join(dir, entry.name);
    let real = path.join(realDir, entry.name);
    let kind: "file" | "dir" | "other" = entry.isDirectory() ? "dir" : entry.isFile() ? "file" : "other";
    // Stryker disable next-line ConditionalExpression: equivalent, what is not a link resolves to itself, inside the root
    if (entry.isSymbolicLink()) {
      const link = await resolveLink(context.realRoot, absolutePath);
      if (link.status === "dangling") continue;
      if (link.status !== "inside") {
        const leftOut = (await skip?.(rel, false, undefined)) || (await skip?.(rel, true, undefined));
        if (leftOut) walk.leftOut.push(rel);
        else walk.problems.push({ path: rel, target: link.target, problem: link.status });
        continue;
      }
      // Stryker disable next-line ConditionalExpression: equivalent, only a folder can be an ancestor
      if (link.kind === "dir" && ancestors.includes(link.real)) {
        if (await skip?.(rel, true, undefined)) walk.leftOut.push(`${rel}/`);
        else walk.problems.push({ path: rel, target: link.target, problem: "loop" });
        continue;
      }
      real = link.real;
      kind = link.kind;
    }
    if (kind === "other") continue;
    // A link inside is left out when its target is, so `config -> .env` ships no secrets under another name.
    const targetRel = entry.isSymbolicLink() ? relativeInside(context.realRoot, real) : undefined;
    const isDir = kind === "dir";
    if (
      (await skip?.(rel, isDir, absolutePath)) ||
      // A link to the root itself is a loop, reported above.
      (targetRel !== undefined && (await skip?.(targetRel, isDir, real)))
    ) {
      walk.leftOut.push(kind === "dir" ? `${rel}/` : rel);
      continue;
    }
    if (kind === "dir") await walkFolder(context, absolutePath, real, `${rel}/`, [...ancestors, real]);
    else walk.files.push({ path: rel, absolutePath, mode: (await lstat(real)).mode });
  }
}

/** Where `source` really lies, when that is inside `root` (both resolved through links); undefined otherwise. */
export async function realInside(root: string, source: string): Promise<string | undefined> {
  const [realRoot, real] = await Promise.all([realpath(root), realpath(source)]);
  return relativeInside(realRoot, real) === undefined ? undefined : real;
}
