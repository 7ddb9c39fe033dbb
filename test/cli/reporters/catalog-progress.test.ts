import { describe, expect, it } from "vitest";
import type { CatalogDryRun, CatalogSummary } from "../../../src/catalog/index.js";
import { captureIo } from "../../../src/cli/io.js";
import {
  catalogConditionsLine,
  catalogFilesLines,
  catalogPlanLines,
  catalogReporter,
  formatCatalogResults,
  skippedLines,
} from "../../../src/cli/reporters/catalog-progress.js";
import type { CatalogResults, CatalogRun } from "../../../src/contracts/catalog.js";

const run = (over: Partial<CatalogRun> = {}): CatalogRun => ({
  owner: "chart-maker",
  query: "draw a bar chart",
  should_trigger: true,
  run_number: 1,
  fired: "chart-maker",
  loaded: ["chart-maker"],
  outcome: "success",
  dir: "chart-maker/query-1/run-1",
  ...over,
});

const skill = (name: string, over: Partial<CatalogResults["skills"][number]> = {}) => ({
  name,
  path: `/lib/${name}`,
  queries: 3,
  runs: 3,
  true_positives: 1,
  false_positives: 0,
  false_negatives: 2,
  true_negatives: 0,
  precision: 1,
  recall: 1 / 3,
  f1: 0.5,
  ...over,
});

const results = (over: Partial<CatalogResults> = {}): CatalogResults => ({
  dir: "/lib",
  agent: { name: "claude-code" },
  simulated: false,
  runs_per_query: 1,
  skills: [skill("chart-maker")],
  confusion: {},
  pairs: [],
  runs: [],
  errors: 0,
  notes: [],
  ...over,
});

describe("skippedLines", () => {
  it("warns once per folder without a SKILL.md, none for none", () => {
    expect(skippedLines([])).toEqual([]);
    expect(skippedLines(["/lib/notes", "/lib/.cache"])).toEqual([
      "warning: /lib/notes has no SKILL.md: not a skill, left out of the catalog (a skill's folder sits directly inside the catalog folder)",
      "warning: /lib/.cache has no SKILL.md: not a skill, left out of the catalog (a skill's folder sits directly inside the catalog folder)",
    ]);
  });
});

describe("catalogReporter", () => {
  it("prints the plan of a new catalog, then a counted line per run: fired, errored, reused, replayed", () => {
    const io = captureIo();
    const reporter = catalogReporter(io);
    reporter.onPlan?.({
      catalogDir: "/lib-workspace/catalog-1",
      total: 4,
      skills: 3,
      simulated: false,
      resumed: false,
      skipped: [],
    });
    reporter.onRunEnd?.(run());
    reporter.onRunEnd?.(run({ fired: "none", error: "timed out", outcome: "timeout" }));
    reporter.onRunEnd?.(
      run({
        fired: "none",
        reused_from: { iteration: "catalog-1", run: "x/run-1", workspace: "/w", cost_usd: 0.01 },
        decided_by: "replay",
      }),
    );
    reporter.onRunEnd?.(run({ fired: "pdf", decided_by: "replay" }));
    reporter.onRunEnd?.(run({ decided_by: "agent" }));
    reporter.onWarning?.("the result store could not be read");
    expect(io.stderr().split("\n")).toEqual([
      "writing /lib-workspace/catalog-1: 3 skills installed together, 4 runs",
      "[1/4] chart-maker/query-1/run-1: fired chart-maker",
      "[2/4] chart-maker/query-1/run-1: error (timeout)",
      "[3/4] chart-maker/query-1/run-1: fired none (reused)",
      "[4/4] chart-maker/query-1/run-1: fired pdf (replay)",
      "[5/4] chart-maker/query-1/run-1: fired chart-maker",
      "warning: the result store could not be read",
      "",
    ]);
  });

  it("prints the skipped folders, then a resumed, simulated shard's plan", () => {
    const io = captureIo();
    catalogReporter(io).onPlan?.({
      catalogDir: "/lib-workspace/catalog-2",
      total: 6,
      skills: 2,
      simulated: true,
      resumed: true,
      shard: { index: 1, count: 3 },
      skipped: ["/lib/notes"],
    });
    expect(io.stderr().split("\n")).toEqual([
      "warning: /lib/notes has no SKILL.md: not a skill, left out of the catalog (a skill's folder sits directly inside the catalog folder)",
      "resuming /lib-workspace/catalog-2: 2 skills installed together, 6 runs (shard 1/3) [SIMULATED: skillgym sim answers, not a model]",
      "",
    ]);
  });

  it("counts an empty error message as an error", () => {
    const io = captureIo();
    const reporter = catalogReporter(io);
    reporter.onRunEnd?.(run({ error: "", outcome: "crash" }));
    expect(io.stderr()).toBe("[1/0] chart-maker/query-1/run-1: error (crash)\n");
  });
});

describe("catalogConditionsLine", () => {
  it("says nothing in the clean room or with no condition set", () => {
    expect(catalogConditionsLine(undefined)).toBeUndefined();
    expect(catalogConditionsLine({})).toBeUndefined();
  });

  it("names the project, the rivals and the conversation, in that order", () => {
    expect(
      catalogConditionsLine({
        project_root: "/repo",
        project_hash: "abc",
        installed: ["pdf", "docx"],
        context: "/chats/prior.jsonl",
        context_turns: 4,
      }),
    ).toBe(
      "conditions: each run in a copy of /repo; rivals installed beside the library: pdf, docx; each run continues /chats/prior.jsonl (4 turns)",
    );
    expect(catalogConditionsLine({ context: "/chats/prior.jsonl" })).toBe(
      "conditions: each run continues /chats/prior.jsonl (0 turns)",
    );
    expect(catalogConditionsLine({ installed: ["pdf"] })).toBe(
      "conditions: rivals installed beside the library: pdf",
    );
  });
});

describe("formatCatalogResults", () => {
  it("prints each skill, a competitor only, the most confused pair, the notes and the conditions", () => {
    const text = formatCatalogResults(
      results({
        skills: [
          skill("chart-maker"),
          skill("pdf", { queries: 0, precision: null, recall: null, f1: null }),
          skill("docx", { precision: null, recall: 0, f1: null }),
        ],
        pairs: [
          { skills: ["chart-maker", "docx"], runs: 3, taken: [] },
          { skills: ["pdf", "docx"], runs: 1, taken: [] },
        ],
        notes: ["pdf has no trigger queries of its own: it took part only as a competitor", "1 run errored"],
        conditions: { project_root: "/repo" },
      }),
    );
    expect(text).toBe(
      [
        "  chart-maker: precision 100%, recall 33%, F1 50%",
        "  pdf: no queries of its own (competitor only)",
        "  docx: precision –, recall 0%, F1 –",
        "  most confused: chart-maker ↔ docx (3 runs)",
        "  note: pdf has no trigger queries of its own: it took part only as a competitor",
        "  note: 1 run errored",
        "  conditions: each run in a copy of /repo",
        "",
      ].join("\n"),
    );
  });
});

describe("catalogFilesLines", () => {
  const summary: CatalogSummary = {
    catalogDir: "/lib-workspace/catalog-1",
    resultsFile: "/lib-workspace/catalog-1/catalog.json",
    markdownFile: "/lib-workspace/catalog-1/catalog.md",
    results: results(),
    cancelled: false,
    resumed: false,
    reused: 0,
    budgetExhausted: false,
  };

  it("names the files and how to view them", () => {
    expect(catalogFilesLines(summary)).toEqual([
      "  catalog.md: /lib-workspace/catalog-1/catalog.md",
      "  catalog.json: /lib-workspace/catalog-1/catalog.json",
      "  view it: skillgym view /lib-workspace",
    ]);
  });

  it("says an interrupted catalog wrote nothing", () => {
    expect(catalogFilesLines({ ...summary, cancelled: true })).toEqual([
      "  (interrupted; not written: run it again to resume)",
    ]);
  });
});

describe("catalogPlanLines", () => {
  const plan: CatalogDryRun = {
    dir: "/lib",
    catalogDir: "/lib-workspace/catalog-1",
    resumes: false,
    skills: [
      { name: "chart-maker", queries: 4 },
      { name: "pdf", queries: 0 },
    ],
    skipped: [],
    queries: 4,
    runsPerQuery: 3,
    runs: 12,
    finished: 0,
    costUsd: 0.36,
    toRun: 12,
    runUsd: 0.03,
    wallSeconds: 130,
    runSeconds: 30,
    concurrency: 4,
    simulated: false,
  };

  it("prints the plan, the cost, the folder, that the store was not read, and the wall time", () => {
    expect(catalogPlanLines(plan)).toEqual([
      "plan for the catalog of /lib: 2 skills installed together in every run: chart-maker (4 queries), pdf (competitor only)",
      "4 queries × 3 run(s) = 12 runs",
      "estimated cost: about $0.36 (rough: $0.03 per catalog run)",
      "would write /lib-workspace/catalog-1",
      "result store: not read (none, or the agent could not be had): every run is made",
      "estimated wall time: about 2m10s for 12 run(s) to make at --concurrency 4 (30s per catalog run: defaults)",
    ]);
  });

  it("prints a simulated shard's resumed plan with conditions, the store and replay", () => {
    expect(
      catalogPlanLines({
        ...plan,
        simulated: true,
        costUsd: 0,
        runs: 4,
        shard: { index: 2, count: 3, runs: 12 },
        resumes: true,
        finished: 1,
        toRun: 3,
        conditions: { installed: ["docx"] },
        store: {
          catalogRuns: {
            runs: 4,
            served: 1,
            toRun: 2,
            judgeServed: 0,
            judgeToRun: 0,
            workspace: "/lib-workspace",
            storeDir: "/store",
          },
          costUsd: 0.06,
          savedUsd: 0.03,
        },
        screen: { kind: "replay", capture_runs: 1, replay_requests: 2, agent_runs_up_to: 2 },
      }),
    ).toEqual([
      "plan for the catalog of /lib: 2 skills installed together in every run: chart-maker (4 queries), pdf (competitor only)",
      "4 queries × 3 run(s) = 12 runs",
      "conditions: rivals installed beside the library: docx",
      "shard 2/3: 4 of 12 runs; the lines below are this shard's",
      "estimated cost: about $0.00 (rough: simulated runs cost nothing)",
      "would resume /lib-workspace/catalog-1: 1 of 4 runs already finished there are kept",
      "result store: /store",
      "  catalog runs: 1 of 4 served by the store, 2 to run, 1 not needed (settled)",
      "the rest costs about $0.06 (the store saves about $0.03)",
      "with --screen replay: 1 capture run (one per key, unless stored), 2 replay requests, up to 2 agent runs (those replay leaves undecided)",
      "estimated wall time: about 2m10s for 3 run(s) to make at --concurrency 4 (30s per catalog run: defaults)",
    ]);
  });
});
