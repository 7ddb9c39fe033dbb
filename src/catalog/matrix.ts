import type { CatalogPair, CatalogRun, CatalogSkill } from "../contracts/catalog.js";

export const NONE = "none";

/** The confusion row of a skill's should-not-trigger queries. */
export function notRow(skill: string): string {
  return `not:${skill}`;
}

export interface CatalogMatrix {
  skills: CatalogSkill[];
  confusion: Record<string, Record<string, number>>;
  pairs: CatalogPair[];
  errors: number;
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

function skillScore(skill: { name: string; path: string; queries: number }, runs: readonly CatalogRun[]) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const run of runs) {
    const fired = run.fired === skill.name;
    if (run.should_trigger) fired ? tp++ : fn++;
    else fired ? fp++ : tn++;
  }
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  const f1 =
    precision === null || recall === null || precision + recall === 0
      ? null
      : (2 * precision * recall) / (precision + recall);
  return {
    name: skill.name,
    path: skill.path,
    queries: skill.queries,
    runs: runs.length,
    true_positives: tp,
    false_positives: fp,
    false_negatives: fn,
    true_negatives: tn,
    precision,
    recall,
    f1,
  };
}

// Pairs of skills whose should-trigger queries the other took, most runs first, then by name.
function rankedPairs(runs: readonly CatalogRun[], examples: number): CatalogPair[] {
  const taken = new Map<string, { owner: string; fired: string; runs: number; queries: Set<string> }>();
  for (const run of runs) {
    if (!run.should_trigger || run.fired === NONE || run.fired === run.owner) continue;
    const key = `${run.owner}\u0000${run.fired}`;
    const entry = taken.get(key) ?? { owner: run.owner, fired: run.fired, runs: 0, queries: new Set() };
    entry.runs++;
    entry.queries.add(run.query);
    taken.set(key, entry);
  }
  const pairs = new Map<string, CatalogPair>();
  for (const entry of taken.values()) {
    const skills = [entry.owner, entry.fired].sort() as [string, string];
    const key = skills.join("\u0000");
    const pair = pairs.get(key) ?? { skills, runs: 0, taken: [] };
    pair.runs += entry.runs;
    pair.taken.push({
      owner: entry.owner,
      fired: entry.fired,
      runs: entry.runs,
      queries: [...entry.queries].slice(0, examples),
    });
    pairs.set(key, pair);
  }
  for (const pair of pairs.values())
    pair.taken.sort((a, b) => b.runs - a.runs || a.owner.localeCompare(b.owner));
  return [...pairs.values()].sort(
    (a, b) => b.runs - a.runs || a.skills.join().localeCompare(b.skills.join()),
  );
}

/**
 * The routing matrix from attributed runs: per skill precision, recall and F1 over its own queries, the confusion
 * counts (rows: owners and `not:<owner>`, columns: the skill that fired first or "none"), and the pairs that take
 * each other's queries. Runs that errored are counted apart and left out.
 */
export function catalogMatrix(
  skills: readonly { name: string; path: string; queries: number }[],
  runs: readonly CatalogRun[],
  options: { examples?: number } = {},
): CatalogMatrix {
  const scored = runs.filter((r) => r.error === undefined);
  const byOwner = new Map<string, CatalogRun[]>();
  for (const run of scored) {
    const list = byOwner.get(run.owner) ?? [];
    list.push(run);
    byOwner.set(run.owner, list);
  }
  const confusion: Record<string, Record<string, number>> = {};
  for (const run of scored) {
    const row = run.should_trigger ? run.owner : notRow(run.owner);
    const cells = confusion[row] ?? {};
    cells[run.fired] = (cells[run.fired] ?? 0) + 1;
    confusion[row] = cells;
  }
  return {
    skills: skills.map((s) => skillScore(s, byOwner.get(s.name) ?? [])),
    confusion,
    pairs: rankedPairs(scored, options.examples ?? 3),
    errors: runs.length - scored.length,
  };
}
