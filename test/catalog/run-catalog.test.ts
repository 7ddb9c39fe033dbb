import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN_FILE } from "../../src/catalog/catalog-folder.js";
import { planCatalog } from "../../src/catalog/dry-run.js";
import { renderCatalogMarkdown } from "../../src/catalog/render-markdown.js";
import { CATALOG_RUN_USD, type CatalogOptions, runCatalog } from "../../src/catalog/run-catalog.js";
import { CatalogResults } from "../../src/contracts/catalog.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { useSimDouble } from "../agent-double/use-sim-double.js";
import { fastRetry, readJson, skillMd, writeTree } from "../e2e/helpers.js";

// runCatalog and planCatalog in this process, the claude-code adapter on the test double, against one sim for the
// file. "A1" loads alpha (nothing when it continues the conversation), "A2" loads nothing (or the rival when it is installed), "B1" (beta's) loads alpha, "B2"
// fails at the API.
const script = SimScript.parse({
  rules: [
    { match: "^A1 ", history: "^Hello", skill: "none", without_skill: [{ text: "Hello again." }] },
    { match: "^A1 ", skill: "~alpha-sg-" },
    { match: "^A2 ", skills: "^rival$", skill: "rival" },
    { match: "^A2 ", skill: "none", without_skill: [{ text: "Sunny." }] },
    { match: "^B1 ", skill: "~alpha-sg-" },
    { match: "^B2 ", fault: { status: 500 } },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
});

const fx = useSimDouble(script, (dir) =>
  writeTree(dir, {
    "lib/alpha/SKILL.md": skillMd("alpha", "Draws charts. Use when asked to plot.", "Draw."),
    "lib/alpha/evals/triggers.json": JSON.stringify([
      { query: "A1 plot the sales", should_trigger: true },
      { query: "A2 what is the weather", should_trigger: false },
    ]),
    "lib/beta/SKILL.md": skillMd("beta", "Summarises CSV files.", "Summarise."),
    "lib/beta/evals/triggers.json": JSON.stringify([
      { query: "B1 summarise orders.csv", should_trigger: true },
      { query: "B2 count the rows", should_trigger: true },
    ]),
    "lib/gamma/SKILL.md": skillMd("gamma", "Writes cards.", "Write."),
    "lib/notes/README.md": "not a skill\n",
    "rivals/rival/SKILL.md": skillMd("rival", "Tells the weather.", "Tell it."),
    "project/README.md": "a project\n",
    "context.json": JSON.stringify([
      { role: "user", content: "Hello." },
      { role: "assistant", content: "Hi." },
    ]),
  }),
);
const lib = () => join(fx.dir, "lib");

const double = () => fx.agent();

function options(workspace: string, overrides: Partial<CatalogOptions> = {}): CatalogOptions {
  return {
    dir: lib(),
    workspace: join(fx.dir, workspace),
    runs: 1,
    concurrency: 2,
    timeoutSeconds: 60,
    retry: { ...fastRetry, attempts: 1 },
    createAgent: () => double(),
    ...overrides,
  };
}

const ERROR = expect.stringMatching(/^API Error: 500 /);
const COMPETITOR = "gamma has no trigger queries of its own: it took part only as a competitor";
const ERRORED = "1 run(s) errored and are left out of the matrix";

// A skill's score row with every count 0 and no ratio, and the overrides given.
const score = (name: string, queries: number, overrides: object = {}) => ({
  name,
  path: join(lib(), name),
  queries,
  runs: 0,
  true_positives: 0,
  false_positives: 0,
  false_negatives: 0,
  true_negatives: 0,
  precision: null,
  recall: null,
  f1: null,
  ...overrides,
});

const run = (
  owner: string,
  place: number,
  query: string,
  should: boolean,
  fired: string,
  outcome: string,
) => ({
  owner,
  query,
  should_trigger: should,
  run_number: 1,
  fired,
  loaded: fired === "none" ? [] : [fired],
  outcome,
  dir: `${owner}/query-${place}/run-1`,
  cost_usd: 0,
});
const A1 = run("alpha", 1, "A1 plot the sales", true, "alpha", "stopped");
const A2 = run("alpha", 2, "A2 what is the weather", false, "none", "success");
const B1 = run("beta", 1, "B1 summarise orders.csv", true, "alpha", "stopped");
const B2 = { ...run("beta", 2, "B2 count the rows", true, "none", "server_error"), error: ERROR };
const PAIRS = [
  {
    skills: ["alpha", "beta"],
    runs: 1,
    taken: [{ owner: "beta", fired: "alpha", runs: 1, queries: ["B1 summarise orders.csv"] }],
  },
];
const scores = () => [
  score("alpha", 2, { runs: 2, true_positives: 1, true_negatives: 1, precision: 1, recall: 1, f1: 1 }),
  score("beta", 2, { runs: 1, false_negatives: 1, recall: 0 }),
  score("gamma", 0),
];

const ws = (name: string) => join(fx.dir, name);

describe("runCatalog", () => {
  it("--max-cost holds every run back: the folder is left interrupted, without catalog.json", async () => {
    const asked: string[] = [];
    const held = await runCatalog(
      options("ws", {
        store: {},
        maxCostUsd: 0.001,
        createAgent: (suiteDir) => {
          asked.push(suiteDir);
          return double();
        },
      }),
    );
    expect(asked).toEqual([lib()]);
    const catalogDir = join(ws("ws"), "catalog-1");
    expect(held).toEqual({
      catalogDir,
      resultsFile: join(catalogDir, "catalog.json"),
      markdownFile: join(catalogDir, "catalog.md"),
      results: {
        dir: lib(),
        agent: { name: "claude-code" },
        simulated: true,
        sandbox: false,
        runs_per_query: 1,
        skills: [score("alpha", 2), score("beta", 2), score("gamma", 0)],
        confusion: {},
        pairs: [],
        errors: 0,
        runs: [],
        notes: [COMPETITOR],
      },
      cancelled: true,
      resumed: false,
      reused: 0,
      budgetExhausted: true,
    });
    expect(await readdir(catalogDir)).toEqual([PLAN_FILE]);
    expect(await readJson(join(catalogDir, PLAN_FILE))).toMatchObject({
      status: "interrupted",
      runs_per_query: 1,
    });
  });

  it("resumes the folder, makes every run, and writes catalog.json, catalog.md and the plan complete", async () => {
    const events: string[] = [];
    const summary = await runCatalog(
      options("ws", {
        store: {},
        reporter: {
          onPlan: (info) => events.push(`plan ${JSON.stringify(info)}`),
          onRunStart: (spec) => events.push(`start ${spec.owner} ${spec.queryIndex}`),
          onRunEnd: (r) => events.push(`end ${r.owner} ${r.query.slice(0, 2)}`),
        },
      }),
    );
    const catalogDir = join(ws("ws"), "catalog-1");
    const results = {
      dir: lib(),
      agent: { name: "claude-code" },
      simulated: true,
      sandbox: false,
      runs_per_query: 1,
      skills: scores(),
      confusion: { alpha: { alpha: 1 }, "not:alpha": { none: 1 }, beta: { alpha: 1 } },
      pairs: PAIRS,
      errors: 1,
      // In folder order, whatever order they ended in.
      runs: [A1, A2, B1, B2],
      notes: [COMPETITOR, ERRORED],
    };
    expect(summary).toEqual({
      catalogDir,
      resultsFile: join(catalogDir, "catalog.json"),
      markdownFile: join(catalogDir, "catalog.md"),
      results,
      cancelled: false,
      resumed: true,
      reused: 0,
      budgetExhausted: false,
    });
    expect(events[0]).toBe(
      `plan ${JSON.stringify({ catalogDir, total: 4, skills: 3, simulated: true, resumed: true, skipped: [join(lib(), "notes")] })}`,
    );
    expect(events.slice(1).sort()).toEqual([
      "end alpha A1",
      "end alpha A2",
      "end beta B1",
      "end beta B2",
      "start alpha 0",
      "start alpha 1",
      "start beta 0",
      "start beta 1",
    ]);
    expect(CatalogResults.parse(await readJson(summary.resultsFile))).toEqual(summary.results);
    expect(await readFile(summary.markdownFile, "utf8")).toBe(renderCatalogMarkdown(summary.results));
    expect(await readJson(join(catalogDir, PLAN_FILE))).toMatchObject({
      status: "complete",
      agent: "claude-code",
    });
    // Each run's record names the run's install names; its activation.json says whose query it was.
    const record = await readJson(join(catalogDir, "beta", "query-1", "run-1", "catalog-run.json"));
    const names = record.install_names as Record<string, string>;
    expect(Object.keys(names)).toEqual(["alpha", "beta", "gamma"]);
    expect(names.alpha).toMatch(/^alpha-sg-[0-9a-f]{8}$/);
    const { install_names: _, ...rest } = record;
    expect(rest).toEqual({ ...B1, loaded: ["alpha"] });
    // The run's transcript is headed with whose query it is, its events kept; the agent was asked the query with
    // every skill of the library listed under this run's install names.
    const runDir = join(catalogDir, "beta", "query-1", "run-1");
    expect((await readFile(join(runDir, "transcript.md"), "utf8")).split("\n")[0]).toBe(
      "# Catalog: beta query 1, run 1",
    );
    expect(await readFile(join(runDir, "events.jsonl"), "utf8")).toContain('"kind":"skill_load"');
    const asked = fx.sim.log.find((e) => e.prompt === "B1 summarise orders.csv");
    expect(asked?.listed).toEqual(expect.arrayContaining([names.alpha, names.beta, names.gamma]));
    expect(asked?.history).toBeUndefined();
    expect(await readJson(join(catalogDir, "beta", "query-1", "run-1", "activation.json"))).toMatchObject({
      skill: "beta",
      configuration: "catalog",
      agent: "claude-code",
      skill_fired: false,
    });
  }, 60_000);

  it("a shard of the same library takes its runs from the store, and makes only a failed one again", async () => {
    const summary = await runCatalog(options("ws", { store: {}, shard: { index: 1, count: 2 } }));
    const catalogDir = join(ws("ws"), "catalog-2");
    const reused = {
      ...A2,
      reused_from: { iteration: "catalog-1", run: "alpha/query-2/run-1", workspace: ws("ws"), cost_usd: 0 },
    };
    expect(summary.results).toEqual({
      dir: lib(),
      agent: { name: "claude-code" },
      simulated: true,
      sandbox: false,
      runs_per_query: 1,
      skills: [score("alpha", 2, { runs: 1, true_negatives: 1 }), score("beta", 2), score("gamma", 0)],
      confusion: { "not:alpha": { none: 1 } },
      pairs: [],
      errors: 1,
      runs: [reused, B2],
      notes: [
        COMPETITOR,
        ERRORED,
        "shard 1/2: the matrix covers only this part's runs; re-run catalog without --shard and with the shards' --cache for the whole one",
      ],
      shard: { index: 1, count: 2, plan_hash: expect.stringMatching(/^[0-9a-f]{16}$/) },
    });
    expect(summary).toMatchObject({ catalogDir, cancelled: false, resumed: false, reused: 1 });
    const { install_names: _, ...record } = await readJson(
      join(catalogDir, "alpha", "query-2", "run-1", "catalog-run.json"),
    );
    expect(record).toEqual(reused);
    expect(await readJson(join(catalogDir, PLAN_FILE))).toMatchObject({ shard: summary.results.shard });
  }, 60_000);

  it("an aborted catalog makes no run and says so; the agent's version and mode are recorded", async () => {
    const controller = new AbortController();
    controller.abort();
    const summary = await runCatalog(
      options("ws-abort", {
        signal: controller.signal,
        model: "claude-sonnet-4-5",
        createAgent: async () => ({ ...(await double()), version: "9.9.9", mode: "default" }),
      }),
    );
    expect(summary).toMatchObject({ cancelled: true, budgetExhausted: false, reused: 0 });
    expect(summary.results.agent).toEqual({ name: "claude-code", version: "9.9.9", mode: "default" });
    expect(summary.results.model).toBe("claude-sonnet-4-5");
    expect(summary.results.runs).toEqual([]);
    const catalogDir = join(ws("ws-abort"), "catalog-1");
    expect(await readJson(join(catalogDir, PLAN_FILE))).toMatchObject({
      status: "interrupted",
      model: "claude-sonnet-4-5",
    });
  });
});

describe("refusals before any run", () => {
  it("refuses --context with an agent that cannot continue a conversation, and --screen with one without replay", async () => {
    const noContext = async () => ({ ...(await double()), name: "codex", continuesConversations: false });
    const context = join(fx.dir, "context.json");
    await expect(runCatalog(options("ws-refused", { context, createAgent: noContext }))).rejects.toThrow(
      /--context is not available with codex/,
    );
    await expect(
      planCatalog(options("ws-refused", { context, createAgent: noContext }), true),
    ).rejects.toThrow(/--context is not available with codex/);
    const noReplay = async () => ({ ...(await double()), name: "opencode" });
    await expect(
      runCatalog(options("ws-refused", { screen: { kind: "replay" }, createAgent: noReplay })),
    ).rejects.toThrow("--screen replay is not available with opencode yet");
    // Nothing was made.
    await expect(readdir(ws("ws-refused"))).rejects.toThrow(/ENOENT/);
  });
});

describe("planCatalog (--dry-run)", () => {
  it("finds the next folder and what the store serves, starting nothing", async () => {
    expect(await planCatalog(options("ws", { store: {} }), true)).toEqual({
      dir: lib(),
      catalogDir: join(ws("ws"), "catalog-3"),
      resumes: false,
      skills: [
        { name: "alpha", queries: 2 },
        { name: "beta", queries: 2 },
        { name: "gamma", queries: 0 },
      ],
      skipped: [join(lib(), "notes")],
      queries: 4,
      runsPerQuery: 1,
      runs: 4,
      finished: 0,
      store: {
        catalogRuns: {
          runs: 4,
          served: 3,
          toRun: 1,
          judgeServed: 0,
          judgeToRun: 0,
          workspace: ws("ws"),
          storeDir: join(ws("ws"), ".skillgym-cache"),
        },
        costUsd: 0,
        savedUsd: 0,
      },
      costUsd: 0,
      toRun: 1,
      runUsd: 0,
      wallSeconds: 3,
      runSeconds: 3,
      concurrency: 2,
      simulated: true,
    });
  });

  it("prices a real agent's runs, without a store everything is to run; --only and a shard narrow the plan", async () => {
    const real = await planCatalog(options("ws", { runs: 3, concurrency: 4 }), false);
    expect(real).toMatchObject({
      catalogDir: join(ws("ws"), "catalog-3"),
      queries: 4,
      runsPerQuery: 3,
      runs: 12,
      costUsd: 12 * CATALOG_RUN_USD,
      runUsd: CATALOG_RUN_USD,
      toRun: 12,
      // 12 runs in 3 waves of 4 at 30 s each.
      wallSeconds: 90,
      runSeconds: 30,
      concurrency: 4,
      simulated: false,
      store: {
        catalogRuns: { runs: 12, served: 0, toRun: 12, judgeServed: 0, judgeToRun: 0, workspace: ws("ws") },
        costUsd: 12 * CATALOG_RUN_USD,
        savedUsd: 0,
      },
    });
    expect(real.store?.catalogRuns?.storeDir).toBeUndefined();
    expect(real.shard).toBeUndefined();
    expect(real.screen).toBeUndefined();
    expect(real.conditions).toBeUndefined();

    const part = await planCatalog(
      options("ws", { runs: 2, only: ["beta"], shard: { index: 2, count: 2 }, screen: { kind: "replay" } }),
      true,
    );
    expect(part).toMatchObject({ queries: 2, runsPerQuery: 2, finished: 0, simulated: true });
    expect(part.shard).toEqual({ index: 2, count: 2, runs: 4 });
    expect(part.runs).toBeGreaterThan(0);
    expect(part.runs).toBeLessThan(4);
    expect(part.toRun).toBe(part.runs);
    expect(part.screen).toEqual({
      kind: "replay",
      capture_runs: 1,
      replay_requests: part.runs,
      agent_runs_up_to: part.runs,
    });
  });

  it("reads nothing from a store asked to be fresh", async () => {
    const plan = await planCatalog(options("ws", { store: { fresh: true } }), true);
    expect(plan.store?.catalogRuns).toEqual({
      runs: 4,
      served: 0,
      toRun: 4,
      judgeServed: 0,
      judgeToRun: 0,
      workspace: ws("ws"),
    });
    expect(plan.toRun).toBe(4);
  });

  it("without an agent it says no folder and no store, and counts every run to make", async () => {
    const plan = await planCatalog(
      options("ws", { store: {}, createAgent: () => Promise.reject(new Error("not installed")) }),
      true,
    );
    expect(plan).toMatchObject({
      catalogDir: `${ws("ws")}/catalog-<N>`,
      resumes: false,
      runs: 4,
      toRun: 4,
      finished: 0,
    });
    expect(plan.store).toBeUndefined();
    // 4 runs in 2 waves of 2 at the simulated 3 s.
    expect(plan.wallSeconds).toBe(6);
  });

  it("keeps the runs an unfinished folder holds, and then has nothing to screen", async () => {
    const catalogDir = join(ws("ws"), "catalog-2");
    const planFile = join(catalogDir, PLAN_FILE);
    const written = await readJson(planFile);
    await writeFile(planFile, JSON.stringify({ ...written, status: "interrupted" }));
    try {
      const plan = await planCatalog(
        options("ws", { store: {}, shard: { index: 1, count: 2 }, screen: { kind: "replay" } }),
        true,
      );
      expect(plan).toMatchObject({ catalogDir, resumes: true, runs: 2, finished: 2, toRun: 0, costUsd: 0 });
      expect(plan.store?.catalogRuns).toMatchObject({ runs: 0, served: 0, toRun: 0 });
      expect(plan.screen).toBeUndefined();
    } finally {
      await writeFile(planFile, JSON.stringify(written));
    }
  });
});

describe("runCatalog --screen replay under conditions", () => {
  const screened = (workspace: string) =>
    options(workspace, {
      screen: { kind: "replay" },
      store: {},
      installed: [join(fx.dir, "rivals")],
      project: join(fx.dir, "project"),
      context: join(fx.dir, "context.json"),
      model: "claude-sonnet-4-5",
    });

  it("decides the runs the first turn decides by replay, the rest by the agent, and records the conditions", async () => {
    const summary = await runCatalog(screened("ws-screen"));
    const catalogDir = join(ws("ws-screen"), "catalog-1");
    const conditions = {
      project_root: join(fx.dir, "project"),
      project_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      installed: ["rival"],
      context: join(fx.dir, "context.json"),
      context_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      context_turns: 2,
    };
    const replayed = { outcome: "success", decided_by: "replay" };
    expect(summary.results).toEqual({
      dir: lib(),
      agent: { name: "claude-code" },
      model: "claude-sonnet-4-5",
      simulated: true,
      sandbox: false,
      runs_per_query: 1,
      skills: [
        score("alpha", 2, { runs: 2, false_negatives: 1, true_negatives: 1, recall: 0 }),
        ...scores().slice(1),
      ],
      confusion: { alpha: { none: 1 }, "not:alpha": { rival: 1 }, beta: { alpha: 1 } },
      pairs: PAIRS,
      errors: 1,
      runs: [
        { ...A1, fired: "none", loaded: [], ...replayed },
        { ...A2, fired: "rival", loaded: ["rival"], ...replayed },
        { ...B1, ...replayed },
        { ...B2, decided_by: "agent" },
      ],
      notes: [COMPETITOR, ERRORED],
      conditions,
      screen: { kind: "replay", decided_by_replay: 3, decided_by_agent: 1, captured: true },
    });
    expect(await readJson(join(catalogDir, PLAN_FILE))).toMatchObject({
      installed: [join(fx.dir, "rivals")],
      project_root: join(fx.dir, "project"),
      project_hash: summary.results.conditions?.project_hash,
      context: join(fx.dir, "context.json"),
      context_hash: summary.results.conditions?.context_hash,
      status: "complete",
    });
    // A replayed run keeps the turn that decided it; the agent's run keeps its install names once marked.
    expect(await readJson(join(catalogDir, "alpha", "query-2", "run-1", "replay-turn.json"))).toMatchObject({
      verdict: "stolen",
    });
    const agentRun = await readJson(join(catalogDir, "beta", "query-2", "run-1", "catalog-run.json"));
    expect(agentRun).toMatchObject({ decided_by: "agent", outcome: "server_error" });
    expect(Object.keys(agentRun.install_names as object)).toEqual(["alpha", "beta", "gamma"]);
    // The agent's run continued the conversation, with the rival listed beside the library.
    const asked = fx.sim.log.filter((e) => e.prompt === "B2 count the rows" && e.history !== undefined);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked[0]!.history).toEqual(["Hello.", "Hi."]);
    expect(asked[0]!.listed).toContain("rival");
    // The dry run keys the project and the conversation as the run did.
    const dry = await planCatalog(screened("ws-screen"), true);
    expect(dry.conditions).toEqual(summary.results.conditions);
    // Replayed runs are not catalog runs of the store (its capture is), and the failed run was not kept.
    expect(dry).toMatchObject({ catalogDir: join(ws("ws-screen"), "catalog-2"), toRun: 4 });
    expect(dry.store?.catalogRuns).toMatchObject({ runs: 4, served: 0, toRun: 4 });
  }, 60_000);

  it("counts every run the agent's when a resumed folder already holds them all", async () => {
    const catalogDir = join(ws("ws-screen"), "catalog-1");
    const planFile = join(catalogDir, PLAN_FILE);
    await writeFile(planFile, JSON.stringify({ ...(await readJson(planFile)), status: "interrupted" }));
    const summary = await runCatalog(screened("ws-screen"));
    expect(summary).toMatchObject({ catalogDir, resumed: true, cancelled: false });
    expect(summary.results.runs).toHaveLength(4);
    expect(summary.results.screen).toEqual({ kind: "replay", decided_by_replay: 0, decided_by_agent: 4 });
  });

  it("--screen-verify 100 has the agent make every replayed run too, and records that it agreed", async () => {
    // The first catalog's store: its capture is served, read with the names it was made with.
    const summary = await runCatalog({
      ...screened("ws-verify"),
      store: { dir: join(ws("ws-screen"), ".skillgym-cache") },
      screen: { kind: "replay", verifyPercent: 100 },
      // alpha's queries only (two runs to check): the capture is of the whole library all the same.
      only: ["alpha"],
    });
    const checked = { decided_by: "agent", replay_agreed: true };
    expect(summary.results.runs).toEqual([
      { ...A1, fired: "none", loaded: [], outcome: "success", ...checked },
      { ...A2, fired: "rival", loaded: ["rival"], outcome: "stopped", ...checked },
    ]);
    expect(summary.results.screen).toEqual({
      kind: "replay",
      decided_by_replay: 0,
      decided_by_agent: 2,
      captured: false,
      verified: { runs: 2, agreed: 2, agreement: 1, fell_back: false },
    });
    // The agent's record on disk is marked, its install names kept.
    const written = await readJson(join(summary.catalogDir, "alpha", "query-1", "run-1", "catalog-run.json"));
    expect(written).toMatchObject(checked);
    expect(Object.keys(written.install_names as object)).toEqual(["alpha", "beta", "gamma"]);
  }, 60_000);
});
