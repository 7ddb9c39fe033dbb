import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Finding } from "../findings.js";
import { isDirectory } from "./fs-probe.js";

export interface Overlays {
  base?: string;
  /** Keyed by the eval id as a string. */
  perEval: Map<string, string>;
  findings: Finding[];
}

const reservedFolders = new Set(["setup", "files"]);

/** Finds `<suite>/setup/` and every `<suite>/<eval-id>/setup/`; pass `evalIds` undefined when no evals.json loaded. */
export async function findOverlays(
  suiteDir: string,
  evalIds: ReadonlySet<string> | undefined,
): Promise<Overlays> {
  const overlays: Overlays = { perEval: new Map(), findings: [] };
  const base = join(suiteDir, "setup");
  if (await isDirectory(base)) overlays.base = base;
  if (evalIds === undefined) return overlays;
  for (const name of await folderNames(suiteDir)) {
    if (reservedFolders.has(name)) continue;
    const setup = join(suiteDir, name, "setup");
    if (!(await isDirectory(setup))) continue;
    if (evalIds.has(name)) overlays.perEval.set(name, setup);
    else {
      overlays.findings.push({
        severity: "warning",
        code: "overlay-orphan",
        file: setup,
        message: `looks like a per-eval overlay, but evals.json has no eval with id ${JSON.stringify(name)}; it is never applied`,
        hint: "rename the folder to an existing eval id (exactly as written in evals.json) or remove it",
      });
    }
  }
  return overlays;
}

async function folderNames(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}
