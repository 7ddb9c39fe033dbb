import { describe, expect, it } from "vitest";
import { catalogMatrix } from "../../src/catalog/index.js";
import type { CatalogRun } from "../../src/contracts/catalog.js";

const run = (owner: string, should: boolean, fired: string, extra: Partial<CatalogRun> = {}): CatalogRun => ({
  owner,
  query: `${owner} ${should ? "yes" : "no"} ${fired}`,
  should_trigger: should,
  run_number: 1,
  fired,
  loaded: fired === "none" ? [] : [fired],
  outcome: "stopped",
  dir: "x",
  ...extra,
});

const skills = [
  { name: "a", path: "/a", queries: 2 },
  { name: "b", path: "/b", queries: 1 },
  { name: "c", path: "/c", queries: 0 },
];

describe("catalogMatrix", () => {
  it("counts rows by owner and not:<owner>, scores each skill over its own queries, ranks the pairs", () => {
    const m = catalogMatrix(skills, [
      run("a", true, "a"),
      run("a", true, "b"),
      run("a", true, "c"),
      run("a", false, "a"),
      run("b", true, "a"),
      run("b", true, "none"),
      run("b", false, "c"),
      run("b", true, "b", { error: "timeout", outcome: "timeout" }),
    ]);
    expect(m.confusion).toEqual({
      a: { a: 1, b: 1, c: 1 },
      "not:a": { a: 1 },
      b: { a: 1, none: 1 },
      "not:b": { c: 1 },
    });
    expect(m.errors).toBe(1);
    expect(m.skills[0]).toMatchObject({
      true_positives: 1,
      false_negatives: 2,
      false_positives: 1,
      precision: 0.5,
    });
    expect(m.skills[1]).toMatchObject({ runs: 3, true_positives: 0, recall: 0, f1: null });
    expect(m.skills[2]).toMatchObject({ runs: 0, precision: null, recall: null });
    expect(m.pairs.map((p) => [p.skills, p.runs])).toEqual([
      [["a", "b"], 2],
      [["a", "c"], 1],
    ]);
  });

  it("computes the matrix of 100 skills × 5 queries × 2 runs well under a second", () => {
    const many = Array.from({ length: 100 }, (_, i) => ({ name: `s${i}`, path: `/s${i}`, queries: 5 }));
    const runs = many.flatMap((s, i) =>
      Array.from({ length: 10 }, (_, k) => run(s.name, k % 5 !== 4, `s${(i + (k % 3)) % 100}`)),
    );
    const started = performance.now();
    const m = catalogMatrix(many, runs);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(Object.keys(m.confusion)).toHaveLength(200);
  });
});
