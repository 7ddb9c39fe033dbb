import type { GradedExpectation } from "../contracts/grading.js";
import type { Contradiction } from "./view-model.js";

// Checks that find a file by path say, when it is absent, "<path> does not exist" (src/grade/checks/workspace-file.ts).
const fileChecks = new Set(["file_exists", "file_contains", "file_unchanged"]);
const MISSING = /^(.+?) (?:does not exist|is a symbolic link to a missing target)$/;
// Characters a path is made of; a name is mentioned only when the text around it is not more of a path.
const PATH_CHAR = /[\w./\\-]/;

/** The file a failed check proved missing, or undefined when the check says something else. */
export function missingFileOf(expectation: GradedExpectation): string | undefined {
  if (expectation.source !== "check" || expectation.passed) return undefined;
  if (!expectation.check_type || !fileChecks.has(expectation.check_type)) return undefined;
  return MISSING.exec(expectation.evidence.trim())?.[1];
}

function normalised(path: string): string {
  return path.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
}

// The text names `file` when a path-like word in it is that path, or one ends with the other: a judge writes
// "invoice.txt" for the check's "out/invoice.txt", or "outputs/invoice.txt" for its "invoice.txt"; "myinvoice.txt"
// is another file.
export function namesFile(text: string, file: string): boolean {
  const wanted = normalised(file);
  const base = wanted.slice(wanted.lastIndexOf("/") + 1);
  if (base === "") return false;
  const lower = text.toLowerCase();
  const needle = base.toLowerCase();
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
    const after = at + needle.length;
    const next = text.charAt(after);
    // A following "." ends a sentence unless more of a name comes after it.
    if (PATH_CHAR.test(next) && !(next === "." && !PATH_CHAR.test(text.charAt(after + 1)))) continue;
    let start = at;
    // charAt(-1) is "", which ends the word at the text's start.
    while (PATH_CHAR.test(text.charAt(start - 1))) start--;
    const word = normalised(text.slice(start, after)).toLowerCase();
    const path = wanted.toLowerCase();
    if (word === path || path.endsWith(`/${word}`) || word.endsWith(`/${path}`)) return true;
  }
  return false;
}

/** Judge verdicts that passed an expectation about a file a check showed does not exist. */
export function findContradictions(expectations: readonly GradedExpectation[]): Contradiction[] {
  const missing = expectations.flatMap((x, check) => {
    const file = missingFileOf(x);
    return file === undefined ? [] : [{ check, file, reason: x.evidence.trim() }];
  });
  const found: Contradiction[] = [];
  expectations.forEach((x, expectation) => {
    if (x.source === "check" || !x.passed) return;
    const hit = missing.find((m) => namesFile(x.text, m.file));
    if (hit) found.push({ expectation, ...hit });
  });
  return found;
}
