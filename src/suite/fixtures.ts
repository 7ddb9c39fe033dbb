import { realpath } from "node:fs/promises";
import { join } from "node:path";
import type { Finding } from "../findings.js";
import { exists, isDirectory } from "../fs-probe.js";
import { describeLink, realInside, walkTree } from "../tree/links.js";
import type { Fixture } from "./model.js";
import { toWorkspacePath } from "./workspace-path.js";

export interface FixtureBases {
  skillDir: string;
  projectRoot: string;
  suiteDir: string;
  /** The evals.json the entries come from, named in findings. */
  evalsFile: string;
}

/**
 * A `files` entry is looked up relative to the skill folder (skill-creator), then the project root (BMad),
 * then the suite folder (a convenience for suites that keep `files/` beside evals.json); it is staged at the
 * entry as written, normalized to POSIX. A fixture may be a file or a folder.
 */
export async function resolveFixtures(
  evalIndex: number,
  entries: readonly string[],
  bases: FixtureBases,
): Promise<{ fixtures: Fixture[]; findings: Finding[] }> {
  const fixtures: Fixture[] = [];
  const findings: Finding[] = [];
  for (const [j, entry] of entries.entries()) {
    const location = `evals[${evalIndex}].files[${j}]`;
    const target = toWorkspacePath(entry);
    if (!target.ok) {
      findings.push({
        severity: "error",
        code: "fixture-path",
        file: bases.evalsFile,
        location,
        message: `fixture ${JSON.stringify(entry)} ${target.reason}`,
        hint: "write fixture paths relative to the skill folder or the project root",
      });
      continue;
    }
    const tried = [bases.skillDir, bases.projectRoot, bases.suiteDir].map((base) => ({
      base,
      path: join(base, target.path),
    }));
    const places = tried.filter((p, i) => tried.findIndex((q) => q.path === p.path) === i);
    let found: { base: string; path: string } | undefined;
    for (const candidate of places) {
      if (await exists(candidate.path)) {
        found = candidate;
        break;
      }
    }
    if (found === undefined) {
      findings.push({
        severity: "error",
        code: "fixture-missing",
        file: bases.evalsFile,
        location,
        message: `fixture ${JSON.stringify(entry)} not found; tried ${places.map((p) => p.path).join(", ")}`,
        hint: "create the file or correct the path (relative to the skill folder or the project root)",
      });
      continue;
    }
    const links = await linkProblems(found.base, found.path);
    for (const message of links) {
      findings.push({
        severity: "error",
        code: "fixture-link-outside",
        file: bases.evalsFile,
        location,
        message: `fixture ${JSON.stringify(entry)}: ${message}`,
        hint: "copy the file into the suite, skill or project folder instead of linking to it",
      });
    }
    // A link inside its folder stands for its target: staging then copies a real file, never a link.
    const real = await realpath(found.path);
    const linked = real !== join(await realpath(found.base), target.path);
    if (links.length === 0) fixtures.push({ source: linked ? real : found.path, target: target.path });
  }
  return { fixtures, findings };
}

// A fixture must really lie inside the folder it was found in, and a folder fixture must hold no link leaving it.
async function linkProblems(base: string, source: string): Promise<string[]> {
  if ((await realInside(base, source)) === undefined) {
    return [`${source} is, or passes through, a link to ${await realpath(source)}, outside ${base}`];
  }
  if (!(await isDirectory(source))) return [];
  const { problems } = await walkTree(source);
  return problems
    .filter((p) => p.problem === "outside")
    .map((p) => describeLink(p, `the fixture folder ${source}`));
}
