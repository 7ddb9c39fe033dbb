/**
 * `files` with those `expected` names (seconds each) first, slowest first; the rest after them in the order given.
 * Paths are relative to the project's root, with `/`.
 */
export function slowFirst<T>(
  files: readonly T[],
  pathOf: (file: T) => string,
  expected: Readonly<Record<string, number>>,
): T[] {
  const known = files.filter((file) => expected[pathOf(file)] !== undefined);
  const rest = files.filter((file) => expected[pathOf(file)] === undefined);
  known.sort((a, b) => (expected[pathOf(b)] ?? 0) - (expected[pathOf(a)] ?? 0));
  return [...known, ...rest];
}
