// What a skill's hash and package leave out: tooling state, caches, and the skill's own evals.
const EXCLUDED_ANYWHERE = new Set([".git", "node_modules", "__pycache__", ".DS_Store"]);
const EXCLUDED_AT_ROOT = new Set(["evals"]);
const EXCLUDED_SUFFIXES = [".pyc"];

/** Whether an entry of the skill folder is left out, given its POSIX path relative to the skill folder. */
export function isExcluded(relativePath: string): boolean {
  const parts = relativePath.split("/");
  if (EXCLUDED_AT_ROOT.has(parts[0] ?? "")) return true;
  return parts.some(
    (part) => EXCLUDED_ANYWHERE.has(part) || EXCLUDED_SUFFIXES.some((suffix) => part.endsWith(suffix)),
  );
}
