import { realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { ViewTarget } from "./target.js";

export type ServedFile =
  | { ok: true; file: string; size: number }
  | { ok: false; status: 400 | 403 | 404; error: string };

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  // The folder itself ("") is inside it too.
  return !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

/**
 * The file a page asks for, by its path under the workspace root. Only files inside the workspace's iteration
 * folders are served, after resolving `..` and symlinks: outputs come from agents and may link anywhere.
 */
export async function resolveServedFile(target: ViewTarget, requested: string | null): Promise<ServedFile> {
  if (!requested) return { ok: false, status: 400, error: "path: required" };
  if (requested.includes("\0") || requested.includes("\\") || isAbsolute(requested)) {
    return { ok: false, status: 403, error: "path: outside the workspace" };
  }
  const wanted = resolve(target.root, requested);
  const iteration = target.all.find((it) => inside(it.dir, wanted));
  if (!iteration || wanted === iteration.dir)
    return { ok: false, status: 403, error: "path: outside the workspace" };
  const [real, realIteration] = await Promise.all([
    realpath(wanted).catch(() => undefined),
    realpath(iteration.dir).catch(() => undefined),
  ]);
  if (!real || !realIteration) return { ok: false, status: 404, error: `${requested}: no such file` };
  if (!inside(realIteration, real)) return { ok: false, status: 403, error: "path: outside the workspace" };
  const info = await stat(real).catch(() => undefined);
  if (!info?.isFile()) return { ok: false, status: 404, error: `${requested}: no such file` };
  return { ok: true, file: real, size: info.size };
}
