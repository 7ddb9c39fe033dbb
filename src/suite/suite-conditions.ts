import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { SuiteConditions } from "../contracts/evals.js";
import { SkillgymError } from "../errors.js";

/** The suite's `"conditions"`, its paths made absolute (relative to the folder of evals.json). */
export interface ResolvedSuiteConditions {
  /** The evals.json they were read from, to name in messages. */
  file: string;
  projectRoot?: string;
  installed?: string[];
  context?: string;
  sideBySide?: boolean;
}

const fieldPath = (path: readonly PropertyKey[]) =>
  ["conditions", ...path]
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
    .join("")
    .slice(1);

/**
 * The `"conditions"` of the suite's evals.json (a folder's evals.json, or the evals file given); nothing when there is
 * no evals.json or it names none. A wrong field is a usage error naming the file and the field. A file that is not
 * JSON is left to the suite's loader, which says where.
 */
export async function suiteConditions(suite: {
  dir: string;
  evalsFile?: string | undefined;
}): Promise<ResolvedSuiteConditions | undefined> {
  const file = suite.evalsFile ?? join(suite.dir, "evals.json");
  let top: unknown;
  try {
    top = JSON.parse((await readFile(file, "utf8")).replace(/^\uFEFF/, ""));
    // Unreadable or not JSON: top stays undefined, which is no conditions just below.
  } catch {}
  if (typeof top !== "object" || top === null || !("conditions" in top)) return undefined;
  const read = SuiteConditions.safeParse((top as { conditions: unknown }).conditions);
  if (!read.success) {
    const issue = read.error.issues[0]!;
    const unknown = issue.code === "unrecognized_keys" ? ` (${issue.keys.join(", ")})` : "";
    throw new SkillgymError(
      "INVALID_SUITE",
      `${file}: ${fieldPath(issue.path)}: ${issue.message}${unknown}`,
      {
        file,
        hint: 'conditions takes "project_root" (a folder), "installed" (a list of folders), "context" (a file) and "side_by_side" (true or false), paths relative to evals.json',
      },
    );
  }
  const base = dirname(file);
  const c = read.data;
  return {
    file,
    ...(c.project_root !== undefined ? { projectRoot: resolve(base, c.project_root) } : {}),
    ...(c.installed ? { installed: c.installed.map((d) => resolve(base, d)) } : {}),
    ...(c.context !== undefined ? { context: resolve(base, c.context) } : {}),
    ...(c.side_by_side !== undefined ? { sideBySide: c.side_by_side } : {}),
  };
}
