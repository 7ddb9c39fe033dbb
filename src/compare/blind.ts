import { randomInt } from "node:crypto";
import * as path from "node:path";
import { mulberry32 } from "../bench/statistics.js";

/** A source of numbers in [0, 1). */
export type Rng = () => number;

/** Which of the two runs (first or second as given) each blind label stands for. */
export interface LabelAssignment {
  A: "first" | "second";
  B: "first" | "second";
}

export function assignLabels(rng?: Rng): LabelAssignment {
  const firstIsA = rng ? rng() < 0.5 : coinFlip();
  return firstIsA ? { A: "first", B: "second" } : { A: "second", B: "first" };
}

function coinFlip(): boolean {
  // Stryker disable next-line EqualityOperator: equivalent, either way each run gets label A half the time
  return randomInt(2) === 0;
}

/** mulberry32: a small seeded generator, so a comparison's labels can be reproduced from its seed. */
export function seededRng(seed: number): Rng {
  return mulberry32(seed);
}

const CONFIGURATION_WORD = /(?:without|with|old)[_-]skills?/gi;
const TOKEN_BREAK = /[\s"'`<>()[\]{},;|]/;
// Where a path named after a configuration ends: at a token break or the next folder separator.
const PATH_END = /[\s"'`<>()[\]{},;|\\/]/;

/**
 * Removes what would tell the judge which run is which: the run folders' paths (a file under `outputs/` is
 * shown relative to it) and configuration names, including temporary workspace paths named after them.
 */
export function blindText(text: string, runDirs: readonly string[]): string {
  let out = text;
  for (const [from, to] of hiddenPaths(runDirs)) out = out.split(from).join(to);
  return hideConfigurationWords(out);
}

function hiddenPaths(runDirs: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (const dir of runDirs) {
    const resolved = path.resolve(dir);
    const outputs = path.join(resolved, "outputs");
    pairs.push([`${outputs}${path.sep}`, ""], [outputs, "."], [resolved, "<run>"]);
  }
  const variants: [string, string][] = [];
  for (const [from, to] of pairs) {
    // A path with backslashes may be written with slashes, or escaped; one without is written one way.
    const written = new Set([from, from.replaceAll("\\", "/"), from.replaceAll("\\", "\\\\")]);
    for (const variant of written) variants.push([variant, to]);
  }
  // Longest first, so that a run's outputs folder goes before the run folder that contains it.
  return variants.sort((a, b) => b[0].length - a[0].length);
}

// A path that has a configuration name in one of its folders loses everything up to that folder.
function hideConfigurationWords(text: string): string {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(CONFIGURATION_WORD)) {
    const at = match.index;
    if (at < last) continue;
    let start = at;
    while (start > last && !TOKEN_BREAK.test(text.charAt(start - 1))) start--;
    let end = at + match[0].length;
    const isPath = /[\\/]/.test(text.slice(start, at));
    if (isPath) {
      const length = text.slice(end).search(PATH_END);
      end = length < 0 ? text.length : end + length;
      out += `${text.slice(last, start)}<workspace>`;
    } else {
      out += `${text.slice(last, at)}[hidden]`;
    }
    last = end;
  }
  return out + text.slice(last);
}
