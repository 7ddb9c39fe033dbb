// The survivors left on purpose: test/mutation/left/<folder>.json lists, for each source folder, the mutants that
// survive and that no test can kill and no Stryker directive can mark alone, each with its reason
// (docs/contributing.md, "Mutation testing"). Read by scripts/mutation-scores.mjs.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

const FIELDS = ["file", "mutator", "original", "replacement", "reason"];
const REASONS = ["equivalent: ", "unreachable: "];

/** Every entry of every list in `dir`, each with where it was written; a malformed entry throws, naming its place. */
export async function readLeft(dir) {
  let names;
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".json")).sort();
  } catch (error) {
    if (error.code === "ENOENT") return [];
    throw error;
  }
  const entries = [];
  for (const name of names) {
    const path = join(dir, name);
    let list;
    try {
      list = JSON.parse(await readFile(path, "utf8"));
    } catch (error) {
      throw new Error(`${path}: not JSON (${error.message})`);
    }
    if (!Array.isArray(list)) throw new Error(`${path}: must be an array of entries`);
    list.forEach((entry, index) => {
      const at = `${path}[${index}]`;
      for (const field of FIELDS) {
        if (typeof entry?.[field] !== "string") throw new Error(`${at}: "${field}" must be a string`);
      }
      if (!REASONS.some((prefix) => entry.reason.startsWith(prefix) && entry.reason.length > prefix.length)) {
        throw new Error(`${at}: "reason" must start with "equivalent: " or "unreachable: " and say why`);
      }
      entries.push({ ...entry, at });
    });
  }
  return entries;
}

function offsetOf(text, { line, column }) {
  const lines = text.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1; i++) offset += lines[i].length + 1;
  return offset + column - 1;
}

/** The source text a mutant replaces. */
export function originalOf(source, mutant) {
  return source.slice(offsetOf(source, mutant.location.start), offsetOf(source, mutant.location.end));
}

/** The entry that lists this mutant of `file` (whose source is `source`), if any. */
export function entryFor(entries, file, source, mutant) {
  const original = originalOf(source, mutant);
  return entries.find(
    (e) =>
      e.file === file &&
      e.mutator === mutant.mutatorName &&
      e.replacement === (mutant.replacement ?? "") &&
      e.original === original,
  );
}
