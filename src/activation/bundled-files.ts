import type { BundledKind } from "../contracts/activation.js";

/** What a file of a skill is, by the folder it sits in. */
export function bundledKind(path: string): BundledKind {
  if (path === "SKILL.md") return "skill_md";
  const top = path.split("/")[0];
  if (top === "references" || top === "reference") return "reference";
  if (top === "scripts") return "script";
  if (top === "assets") return "asset";
  return "other";
}

/** Every string in a tool call's input (paths, commands, argument lists), however the agent nests them. */
export function inputStrings(input: unknown, out: string[] = []): string[] {
  if (typeof input === "string") out.push(input);
  else if (Array.isArray(input)) for (const item of input) inputStrings(item, out);
  else if (
    input &&
    // Stryker disable next-line ConditionalExpression: equivalent, a number or boolean has no values to walk
    typeof input === "object"
  )
    for (const value of Object.values(input as Record<string, unknown>)) inputStrings(value, out);
  return out;
}

const BEFORE = /[\s'"=(/:]/;
const AFTER = /[\s'";|&)<>,]/;

function occursAt(text: string, needle: string, needsSlashBefore: boolean): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(needle, from);
    if (at < 0) return false;
    const before = text[at - 1];
    const after = text[at + needle.length];
    const startOk = !needsSlashBefore || before === undefined || BEFORE.test(before);
    if (startOk && (after === undefined || AFTER.test(after))) return true;
    from = at + 1;
  }
}

/**
 * The bundled files a string names: `<folder>/<file>` for any of the folders the skill may be found under (its
 * install names, its source folder), so a workspace file of the same relative path is never counted.
 */
export function filesNamed(text: string, folders: readonly string[], files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    for (const folder of folders) {
      const absolute = folder.startsWith("/");
      if (occursAt(text, `${folder.replace(/\/+$/, "")}/${file}`, !absolute)) {
        found.push(file);
        break;
      }
    }
  }
  return found;
}
