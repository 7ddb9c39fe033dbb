import { join } from "node:path";
import type { Finding } from "../findings.js";
import { exists } from "./fs-probe.js";
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
    const tried = [bases.skillDir, bases.projectRoot, bases.suiteDir].map((base) => join(base, target.path));
    const places = [...new Set(tried)];
    let source: string | undefined;
    for (const candidate of places) {
      if (await exists(candidate)) {
        source = candidate;
        break;
      }
    }
    if (source === undefined) {
      findings.push({
        severity: "error",
        code: "fixture-missing",
        file: bases.evalsFile,
        location,
        message: `fixture ${JSON.stringify(entry)} not found; tried ${places.join(", ")}`,
        hint: "create the file or correct the path (relative to the skill folder or the project root)",
      });
      continue;
    }
    fixtures.push({ source, target: target.path });
  }
  return { fixtures, findings };
}
