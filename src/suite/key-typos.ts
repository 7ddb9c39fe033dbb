/** The known key an unknown one is probably a misspelling of: same letters in another case, singular/plural, or a small edit. */
export function likelyMeant(key: string, known: readonly string[]): string | undefined {
  const typed = key.toLowerCase();
  for (const candidate of known) {
    const wanted = candidate.toLowerCase();
    if (typed === wanted || `${typed}s` === wanted || typed === `${wanted}s`) return candidate;
  }
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (distance <= allowedDistance(candidate) && (!best || distance < best.distance))
      best = { candidate, distance };
  }
  return best?.candidate;
}

// Short keys would match almost anything at distance 2 (`note` and `name`), so the allowance grows with length.
function allowedDistance(candidate: string): number {
  if (candidate.length >= 6) return 2;
  if (candidate.length >= 4) return 1;
  return 0;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  // The first row and column hold the distance from or to the empty prefix; the loop fills every other cell before reading it.
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => i + j),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i];
    if (!row) continue;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      // At the first letter of either word, a[-1] or b[-1] is undefined and equals no letter, so no swap is counted.
      if (a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, at(i - 2, j - 2) + 1);
      row[j] = value;
    }
  }
  return at(a.length, b.length);
}
