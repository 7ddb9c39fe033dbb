import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import type { AgentEvent } from "../../src/agents/events.js";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import type { CatalogMember } from "../../src/catalog/discover.js";
import { planCatalogRuns } from "../../src/catalog/plan.js";
import { CATALOG_RUN_FILE, catalogHooks, finishedCatalogRun } from "../../src/catalog/reuse-catalog.js";
import { catalogLoads } from "../../src/catalog/run-catalog-query.js";
import { catalogScreenedHooks, classifyCatalogTurn } from "../../src/catalog/screen-catalog.js";
import type { CatalogRun } from "../../src/contracts/catalog.js";
import { openStore, type ResultStore } from "../../src/store/index.js";
import { REPLAYS_PER_AGENT_SLOT } from "../../src/triggers/replay/index.js";
import { readJson, tempDir, writeTree } from "../e2e/helpers.js";

// The pure parts of a catalog run: the record kept from an earlier attempt, the skills an event stream loaded, how a
// replayed first turn decides a run, and the screened hooks before any run.
let dir: string;
let cleanup: () => Promise<void>;
let agent: Agent;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  agent = await createClaudeCodeAgent({ simulatorUrl: "http://127.0.0.1:9" });
});
afterAll(() => cleanup());

const members: CatalogMember[] = [
  {
    name: "alpha",
    dir: "/lib/alpha",
    description: "A.",
    queries: [{ query: "plot it", should_trigger: true }],
  },
  { name: "beta", dir: "/lib/beta", description: "B.", queries: [] },
];

const record = (overrides: Partial<CatalogRun> = {}): CatalogRun => ({
  owner: "alpha",
  query: "plot it",
  should_trigger: true,
  run_number: 1,
  fired: "beta",
  loaded: ["beta", "alpha"],
  outcome: "stopped",
  dir: "alpha/query-1/run-1",
  cost_usd: 0,
  ...overrides,
});

describe("finishedCatalogRun", () => {
  it("keeps a run finished earlier, without its install names; not a cancelled one, another query's or a broken record", async () => {
    const [spec] = planCatalogRuns(members, 1, join(dir, "catalog-1"));
    const write = (content: unknown) =>
      writeTree(spec!.runDir, { [CATALOG_RUN_FILE]: JSON.stringify(content) });
    expect(await finishedCatalogRun(spec!)).toBeUndefined();
    await write({ ...record(), install_names: { alpha: "alpha-sg-1", beta: "beta-sg-2" } });
    expect(await finishedCatalogRun(spec!)).toEqual(record());
    const errored = record({ outcome: "timeout", error: "timed out", fired: "none", loaded: [] });
    await write(errored);
    expect(await finishedCatalogRun(spec!)).toEqual(errored);
    await write(record({ outcome: "cancelled" }));
    expect(await finishedCatalogRun(spec!)).toBeUndefined();
    await write(record({ query: "another query" }));
    expect(await finishedCatalogRun(spec!)).toBeUndefined();
    await write({ ...record(), run_number: 0 });
    expect(await finishedCatalogRun(spec!)).toBeUndefined();
  });
});

describe("catalogLoads", () => {
  it("names the catalog skills that loaded, in order, once each, by their own names", () => {
    const names = new Map([
      ["alpha-sg-1", "alpha"],
      ["beta-sg-2", "beta"],
      ["rival", "rival"],
    ]);
    const events: AgentEvent[] = [
      { kind: "text", text: "Let me see." },
      { kind: "skill_load", skill: "pdf", via: "tool" },
      { kind: "skill_load", skill: "beta-sg-2", via: "tool" },
      { kind: "skill_load", skill: "rival", via: "read" },
      { kind: "skill_load", skill: "beta-sg-2", via: "tool" },
      { kind: "skill_load", skill: "alpha-sg-1", via: "tool" },
    ];
    expect(catalogLoads(events, names)).toEqual(["beta", "rival", "alpha"]);
    expect(catalogLoads(events.slice(0, 2), names)).toEqual([]);
  });
});

describe("classifyCatalogTurn", () => {
  const names = new Map([
    ["alpha-sg-1", "alpha"],
    ["beta-x", "beta"],
    ["rival", "rival"],
  ]);
  const skillOf = (call: { name: string; input: Record<string, unknown> }) =>
    call.name === "Skill" ? (call.input.skill as string) : undefined;
  const call = (skill: string) => ({ name: "Skill", input: { skill } });

  it("no call: no skill fired; every call a known skill: the first fired, each named once in order", () => {
    expect(classifyCatalogTurn({ text: "Sunny.", calls: [] }, names, skillOf)).toEqual({
      label: "not-triggered",
    });
    expect(
      classifyCatalogTurn(
        { text: "", calls: [call("rival"), call("alpha-sg-1"), call("rival")] },
        names,
        skillOf,
      ),
    ).toEqual({ label: "stolen", by: ["rival", "alpha"] });
  });

  it("a call that loads no skill the catalog knows, or no skill at all, leaves the run to the agent", () => {
    const undecided = { label: "undecided" };
    expect(classifyCatalogTurn({ text: "", calls: [call("beta-x"), call("pdf")] }, names, skillOf)).toEqual(
      undecided,
    );
    expect(
      classifyCatalogTurn({ text: "", calls: [{ name: "Bash", input: { command: "ls" } }] }, names, skillOf),
    ).toEqual(undecided);
  });
});

describe("catalogScreenedHooks before any run", () => {
  const hooks = (concurrency: number) =>
    catalogScreenedHooks({
      ctx: {
        agent,
        members,
        bundledFiles: new Map(),
        catalogDir: join(dir, "catalog-1"),
        timeoutMs: 1000,
        tempRoot: dir,
        retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
      },
      hooks: {
        finishedEarlier: async () => undefined,
        run: async () => record(),
      },
      screen: { kind: "replay" },
      concurrency,
    });

  it("holds REPLAYS_PER_AGENT_SLOT runs per agent slot, at least one slot", () => {
    expect(REPLAYS_PER_AGENT_SLOT).toBeGreaterThan(1);
    expect(hooks(3).lanes()).toBe(3 * REPLAYS_PER_AGENT_SLOT);
    expect(hooks(1).lanes()).toBe(REPLAYS_PER_AGENT_SLOT);
    expect(hooks(0).lanes()).toBe(REPLAYS_PER_AGENT_SLOT);
  });

  it("with no run screened, finishes the runs as they are and counts every one not cancelled the agent's", async () => {
    const screened = hooks(2);
    const runs = [record(), record({ outcome: "cancelled" }), record({ outcome: "timeout", error: "x" })];
    expect(await screened.finish(runs)).toBe(runs);
    expect(screened.summary(runs)).toEqual({ kind: "replay", decided_by_replay: 0, decided_by_agent: 2 });
  });
});

describe("catalogScreenedHooks deciding a run by replay", () => {
  const MARKER = "SKILLGYMREPLAYQUERY0123456789abcdef";
  let api: Server;
  let apiUrl = "";
  // The model API: a query with "priced" is answered by a model of known price, any other by one of none; no call.
  beforeAll(async () => {
    api = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            model: body.includes("priced") ? "claude-sonnet-4-5" : "claude-unpriced",
            content: [{ type: "text", text: "Sunny." }],
            usage: { input_tokens: 1000, output_tokens: 100 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", () => resolve()));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    await writeTree(join(dir, "replay-store"), {
      "capture.json": JSON.stringify({
        agent: "claude-code",
        marker: MARKER,
        synthetic_name: "alpha-sg-1",
        method: "POST",
        path: "/v1/messages",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ messages: [{ role: "user", content: MARKER }] }),
      }),
    });
  });
  afterAll(async () => {
    api.closeAllConnections();
    await new Promise<void>((resolve) => api.close(() => resolve()));
  });

  it("records the cost of the replayed turn by its model's price, and no cost for a model without one", async () => {
    const queried = [
      {
        ...members[0]!,
        queries: [
          { query: "plot it", should_trigger: true },
          { query: "priced plot", should_trigger: true },
        ],
      },
      members[1]!,
    ];
    const catalogDir = join(dir, "replayed", "catalog-1");
    const hooks = catalogScreenedHooks({
      ctx: {
        agent: { ...agent, simulated: false, apiBaseUrl: apiUrl },
        members: queried,
        bundledFiles: new Map(),
        catalogDir,
        timeoutMs: 1000,
        tempRoot: dir,
        retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
      },
      hooks: { finishedEarlier: async () => undefined, run: async () => record() },
      screen: { kind: "replay", env: { ANTHROPIC_API_KEY: "sk-ant" } },
      store: { get: async () => ({ filesDir: join(dir, "replay-store") }) } as unknown as ResultStore,
      concurrency: 1,
    });
    const [unpricedSpec, pricedSpec] = planCatalogRuns(queried, 1, catalogDir);
    const replayed = {
      owner: "alpha",
      should_trigger: true,
      run_number: 1,
      fired: "none",
      loaded: [],
      outcome: "success",
      decided_by: "replay",
    };
    const unpriced = await hooks.run(unpricedSpec!);
    expect(unpriced).toStrictEqual({ ...replayed, query: "plot it", dir: "alpha/query-1/run-1" });
    expect(await readJson(join(unpricedSpec!.runDir, CATALOG_RUN_FILE))).toStrictEqual(unpriced);
    const priced = await hooks.run(pricedSpec!);
    expect(priced).toStrictEqual({
      ...replayed,
      query: "priced plot",
      dir: "alpha/query-2/run-1",
      cost_usd: (1000 * 3 + 100 * 15) / 1_000_000,
    });
  });
});

describe("catalogHooks without an agent process", () => {
  const ctx = (catalogDir: string) => ({
    agent,
    members,
    bundledFiles: new Map(),
    catalogDir,
    timeoutMs: 1000,
    tempRoot: dir,
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });

  it("keeps a run finished in the folder, else asks the store, and finds nothing in an empty one or none", async () => {
    const catalogDir = join(dir, "hooks", "catalog-1");
    const [spec] = planCatalogRuns(members, 1, catalogDir);
    const store = openStore({ dir: join(dir, "hooks", "store") });
    expect(await catalogHooks(ctx(catalogDir), undefined).finishedEarlier(spec!)).toBeUndefined();
    expect(await catalogHooks(ctx(catalogDir), store).finishedEarlier(spec!)).toBeUndefined();
    await writeTree(spec!.runDir, { [CATALOG_RUN_FILE]: JSON.stringify(record()) });
    expect(await catalogHooks(ctx(catalogDir), store).finishedEarlier(spec!)).toEqual(record());
  });

  it("a run whose workspace cannot be staged is an error, and is not stored", async () => {
    const catalogDir = join(dir, "broken", "catalog-1");
    const missing = members.map((m) => ({ ...m, dir: join(dir, "no-such-library", m.name) }));
    const [spec] = planCatalogRuns(missing, 1, catalogDir);
    const store = openStore({ dir: join(dir, "broken", "store") });
    const hooks = catalogHooks({ ...ctx(catalogDir), members: missing }, store);
    const run = await hooks.run(spec!);
    const error = `workspace setup failed: Skill folder not found: ${join(dir, "no-such-library", "alpha")}`;
    expect(run).toEqual({
      owner: "alpha",
      query: "plot it",
      should_trigger: true,
      run_number: 1,
      fired: "none",
      loaded: [],
      outcome: "crash",
      error,
      dir: "alpha/query-1/run-1",
      cost_usd: 0,
    });
    const { install_names: names, ...written } = await readJson(join(spec!.runDir, CATALOG_RUN_FILE));
    expect(written).toEqual(run);
    expect(names).toEqual(spec!.installNames);
    expect(await readJson(join(spec!.runDir, "activation.json"))).toMatchObject({
      skill: "alpha",
      configuration: "catalog",
      agent: "claude-code",
      skill_fired: false,
    });
    // Not stored: the next catalog makes it again.
    expect(
      await hooks.finishedEarlier({ ...spec!, runDir: join(dir, "broken", "catalog-2", "x") }),
    ).toBeUndefined();
  });
});
