import { readdir, stat } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { SkillgymError } from "../errors.js";

export interface IterationRef {
  number: number;
  name: string;
  dir: string;
  /** Set for one agent's folder inside an iteration that ran several agents. */
  agent?: string;
}

/** What `skillgym view` was pointed at: the iterations it shows and the workspace around them. */
export interface ViewTarget {
  /** The folder given, resolved. */
  path: string;
  /** The workspace folder; file URLs are relative to it. */
  root: string;
  /** Iterations shown, oldest first. */
  shown: IterationRef[];
  /** Every iteration of the workspace, oldest first: for "over time" and the previous iteration's output. */
  all: IterationRef[];
}

const ITERATION = /^iteration-(\d+)$/;

async function listIterations(dir: string): Promise<IterationRef[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .flatMap((entry) => {
      const match = ITERATION.exec(entry.name);
      return entry.isDirectory() && match
        ? [{ number: Number(match[1]), name: entry.name, dir: resolve(dir, entry.name) }]
        : [];
    })
    .sort((a, b) => a.number - b.number);
}

const CATALOG = /^catalog-\d+$/;

// A workspace written by `skillgym catalog` holds catalog-<N>/ folders and no iteration.
async function holdsCatalogs(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.some((e) => e.isDirectory() && CATALOG.test(e.name));
}

async function looksLikeIteration(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.some(
    (e) =>
      (e.isDirectory() && (e.name.startsWith("eval-") || e.name === "triggers")) ||
      (e.isFile() && (e.name === "iteration.json" || e.name === "benchmark.json")),
  );
}

function notAWorkspace(path: string, why: string): SkillgymError {
  return new SkillgymError("BAD_INPUT", `${path}: ${why}`, {
    file: path,
    hint: "give a skill's workspace folder (holding iteration-<N>/ folders) or one iteration-<N>/ folder",
  });
}

/** Reads what a folder is: a workspace (every iteration) or one iteration folder. */
export async function resolveViewTarget(folder: string): Promise<ViewTarget> {
  const path = resolve(folder);
  const info = await stat(path).catch(() => undefined);
  if (!info) throw notAWorkspace(path, "no such folder");
  if (!info.isDirectory()) throw notAWorkspace(path, "not a folder");
  const iterations = await listIterations(path);
  if (iterations.length > 0) return { path, root: path, shown: iterations, all: iterations };
  if (await holdsCatalogs(path)) return { path, root: path, shown: [], all: [] };
  if (CATALOG.test(basename(path))) return { path, root: dirname(path), shown: [], all: [] };
  if (!(await looksLikeIteration(path))) {
    throw notAWorkspace(path, "holds no iteration-<N>/, eval-<id>/ or catalog-<N>/ folder: nothing to show");
  }
  const match = ITERATION.exec(basename(path));
  if (!match) {
    const only = { number: 1, name: basename(path), dir: path };
    return { path, root: path, shown: [only], all: [only] };
  }
  const parent = dirname(path);
  const self = { number: Number(match[1]), name: basename(path), dir: path };
  // The folder is one of its parent's iterations, so the parent's list holds it.
  return { path, root: parent, shown: [self], all: await listIterations(parent) };
}

export function findIteration(target: ViewTarget, number: number): IterationRef | undefined {
  return target.shown.find((it) => it.number === number);
}

/** The latest iteration before this one that exists in the workspace. */
export function previousIteration(target: ViewTarget, number: number): IterationRef | undefined {
  return target.all.filter((it) => it.number < number).at(-1);
}
