import { describe, expect, it } from "vitest";
import { catalogMatrix, NONE, notRow } from "../../src/catalog/matrix.js";
import { renderCatalogMarkdown } from "../../src/catalog/render-markdown.js";
import type { CatalogResults, CatalogRun } from "../../src/contracts/catalog.js";

const run = (owner: string, should: boolean, fired: string, query: string, extra: Partial<CatalogRun> = {}) =>
  ({
    owner,
    query,
    should_trigger: should,
    run_number: 1,
    fired,
    loaded: fired === NONE ? [] : [fired],
    outcome: "success",
    dir: `${owner}/x`,
    ...extra,
  }) satisfies CatalogRun;

const results = (overrides: Partial<CatalogResults> = {}): CatalogResults => ({
  dir: "/lib",
  agent: { name: "claude-code" },
  simulated: false,
  runs_per_query: 2,
  skills: [],
  confusion: {},
  pairs: [],
  runs: [],
  errors: 0,
  notes: [],
  ...overrides,
});

describe("renderCatalogMarkdown", () => {
  it("prints the scores, the confusion matrix, the pairs with their queries and the notes", () => {
    const runs = [
      run("csv|stats", true, "csv|stats", "q1"),
      run("csv|stats", true, "chart", "sum sales.csv"),
      run("csv|stats", false, NONE, "weather"),
      run("chart", true, "csv|stats", "plot\nprices"),
      run("chart", true, "csv|stats", "trend"),
    ];
    const skills = [
      { name: "chart", path: "/lib/chart", queries: 1 },
      { name: "csv|stats", path: "/lib/csv", queries: 3 },
      { name: "idle", path: "/lib/idle", queries: 0 },
    ];
    const matrix = catalogMatrix(skills, runs);
    const text = renderCatalogMarkdown(
      results({
        ...matrix,
        runs,
        errors: 1,
        simulated: true,
        notes: ["idle has no trigger queries of its own", "1 run(s) errored"],
      }),
    );
    expect(text).toBe(
      [
        "# Catalog: 3 skills",
        "",
        "Agent claude-code (simulated: skillgym sim, not a model), 2 run(s) per query, 5 runs, 1 errors.",
        "",
        "| Skill | Queries | Runs | Precision | Recall | F1 |",
        "|---|---|---|---|---|---|",
        "| chart | 1 | 2 | – | 0% | – |",
        "| csv\\|stats | 3 | 3 | 100% | 50% | 67% |",
        "| idle | 0 | 0 | – | – | – |",
        "",
        "## Confusion (rows: whose query; columns: the skill that fired first)",
        "",
        "| Query of | chart | csv\\|stats | idle | none |",
        "|---|---|---|---|---|",
        "| csv\\|stats | 1 | 1 | 0 | 0 |",
        "| not:csv\\|stats | 0 | 0 | 0 | 1 |",
        "| chart | 0 | 2 | 0 | 0 |",
        "",
        "## Skills that take each other's queries",
        "",
        "- **chart ↔ csv|stats**: 3 run(s)",
        "  - csv|stats took 2 run(s) of chart's queries, e.g. “plot\nprices”, “trend”",
        "  - chart took 1 run(s) of csv|stats's queries, e.g. “sum sales.csv”",
        "",
        "## Notes",
        "",
        "- idle has no trigger queries of its own",
        "- 1 run(s) errored",
        "",
      ].join("\n"),
    );
  });

  it("says no skill took another's query, leaves the notes out, and names a real agent plainly", () => {
    const text = renderCatalogMarkdown(
      results({
        agent: { name: "codex" },
        runs_per_query: 1,
        skills: [
          {
            name: "a",
            path: "/a",
            queries: 1,
            runs: 1,
            true_positives: 1,
            false_positives: 0,
            false_negatives: 0,
            true_negatives: 0,
            precision: 1,
            recall: 0.995,
            f1: 0.004,
          },
        ],
        confusion: { a: { a: 1 } },
        runs: [run("a", true, "a", "q")],
      }),
    );
    expect(text).toBe(
      [
        "# Catalog: 1 skills",
        "",
        "Agent codex, 1 run(s) per query, 1 runs, 0 errors.",
        "",
        "| Skill | Queries | Runs | Precision | Recall | F1 |",
        "|---|---|---|---|---|---|",
        "| a | 1 | 1 | 100% | 100% | 0% |",
        "",
        "## Confusion (rows: whose query; columns: the skill that fired first)",
        "",
        "| Query of | a | none |",
        "|---|---|---|",
        "| a | 1 | 0 |",
        "",
        "## Skills that take each other's queries",
        "",
        "None: no skill took another's should-trigger query.",
        "",
      ].join("\n"),
    );
  });
});

describe("catalogMatrix, exactly", () => {
  it("scores every count and ratio, and names the not: row", () => {
    expect(notRow("a")).toBe("not:a");
    const m = catalogMatrix(
      [
        { name: "a", path: "/a", queries: 3 },
        { name: "b", path: "/b", queries: 2 },
        { name: "c", path: "/c", queries: 2 },
      ],
      [
        run("c", true, NONE, "q6"),
        run("c", false, "c", "q7"),
        run("a", true, "a", "q1"),
        run("a", true, "a", "q1", { run_number: 2 }),
        run("a", true, NONE, "q2"),
        run("a", false, "a", "q3"),
        run("a", false, "b", "q3", { run_number: 2 }),
        run("b", false, NONE, "q4"),
        run("b", true, "b", "q5", { error: "timed out", outcome: "timeout" }),
      ],
    );
    expect(m).toEqual({
      skills: [
        {
          name: "a",
          path: "/a",
          queries: 3,
          runs: 5,
          true_positives: 2,
          false_positives: 1,
          false_negatives: 1,
          true_negatives: 1,
          precision: 2 / 3,
          recall: 2 / 3,
          f1: 2 / 3,
        },
        {
          name: "b",
          path: "/b",
          queries: 2,
          runs: 1,
          true_positives: 0,
          false_positives: 0,
          false_negatives: 0,
          true_negatives: 1,
          precision: null,
          recall: null,
          f1: null,
        },
        {
          name: "c",
          path: "/c",
          queries: 2,
          runs: 2,
          true_positives: 0,
          false_positives: 1,
          false_negatives: 1,
          true_negatives: 0,
          precision: 0,
          recall: 0,
          f1: null,
        },
      ],
      confusion: {
        a: { a: 2, none: 1 },
        "not:a": { a: 1, b: 1 },
        "not:b": { none: 1 },
        c: { none: 1 },
        "not:c": { c: 1 },
      },
      // A should-not-trigger query another skill took is no pair.
      pairs: [],
      errors: 1,
    });
  });

  it("ranks pairs by runs then names, each side by runs then owner, with up to `examples` distinct queries", () => {
    const runs = [
      // b ↔ c: 2 runs; a ↔ c: 2 runs, a ↔ b: 3 runs.
      run("c", true, "b", "c1"),
      run("b", true, "c", "b1"),
      run("c", true, "a", "c2"),
      run("a", true, "c", "a1"),
      run("a", true, "b", "a2"),
      run("a", true, "b", "a2", { run_number: 2 }),
      run("a", true, "b", "a3"),
      run("a", true, "b", "a4"),
      run("b", true, "a", "b2"),
      run("b", true, "a", "b2", { run_number: 2 }),
      run("b", true, "a", "b3"),
      run("b", true, "a", "b4"),
      run("b", true, "a", "b5"),
    ];
    const m = catalogMatrix([], runs, { examples: 2 });
    expect(m.pairs).toEqual([
      {
        skills: ["a", "b"],
        runs: 9,
        taken: [
          { owner: "b", fired: "a", runs: 5, queries: ["b2", "b3"] },
          { owner: "a", fired: "b", runs: 4, queries: ["a2", "a3"] },
        ],
      },
      {
        skills: ["a", "c"],
        runs: 2,
        taken: [
          { owner: "a", fired: "c", runs: 1, queries: ["a1"] },
          { owner: "c", fired: "a", runs: 1, queries: ["c2"] },
        ],
      },
      {
        skills: ["b", "c"],
        runs: 2,
        taken: [
          { owner: "b", fired: "c", runs: 1, queries: ["b1"] },
          { owner: "c", fired: "b", runs: 1, queries: ["c1"] },
        ],
      },
    ]);
    // Three examples by default.
    expect(catalogMatrix([], runs).pairs[0]!.taken[0]!.queries).toEqual(["b2", "b3", "b4"]);
  });
});
