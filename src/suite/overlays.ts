import { readdir, realpath } from "node:fs/promises";
import { join } from "node:path";
import type { Finding } from "../findings.js";
import { isDirectory } from "../fs-probe.js";
import { describeLink, realInside, walkTree } from "../tree/links.js";

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
  if (await isDirectory(base)) {
    overlays.base = base;
    overlays.findings.push(...(await overlayLinkFindings(suiteDir, base)));
  }
  if (evalIds === undefined) return overlays;
  for (const name of await folderNames(suiteDir)) {
    if (reservedFolders.has(name)) continue;
    const setup = join(suiteDir, name, "setup");
    if (!(await isDirectory(setup))) continue;
    if (evalIds.has(name)) {
      overlays.perEval.set(name, setup);
      overlays.findings.push(...(await overlayLinkFindings(suiteDir, setup)));
    } else {
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
    // Stryker disable next-line ArrayDeclaration: equivalent, a made-up name in an unreadable folder holds no setup folder
    return [];
  }
}

// Staging never copies a link out of an overlay; saying so here spares the user a fixture that silently lacks files.
async function overlayLinkFindings(suiteDir: string, overlay: string): Promise<Finding[]> {
  const hint = "copy the files into the overlay instead of linking to them";
  if ((await realInside(suiteDir, overlay)) === undefined) {
    return [
      {
        severity: "error",
        code: "overlay-link-outside",
        file: overlay,
        message: `the overlay is, or passes through, a link to ${await realpath(overlay)}, outside the suite folder ${suiteDir}`,
        hint,
      },
    ];
  }
  const { problems } = await walkTree(overlay);
  return problems
    .filter((p) => p.problem === "outside")
    .map((p) => ({
      severity: "error",
      code: "overlay-link-outside",
      file: join(overlay, ...p.path.split("/")),
      message: describeLink(p, `the overlay ${overlay}`),
      hint,
    }));
}
