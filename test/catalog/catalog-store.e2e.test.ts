import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent } from "../../src/agents/index.js";
import { type CatalogOptions, runCatalog } from "../../src/catalog/index.js";
import { CatalogPlan, CatalogResults } from "../../src/contracts/catalog.js";
import { mergeShards } from "../../src/merge/index.js";
import { loadSimScript, type SimServer, startSim } from "../../src/sim/index.js";
import { agentDouble } from "../agent-double/index.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { root } from "../cli/cli-process.js";
import { fastRetry, tempDir } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;
let library: string;

// What library/sim-script.json routes, one run per query. chart-maker's queries are left out of the copy (it takes
// part as a competitor, as greeting-card does): each outcome still shows, its own skill, another, none, and a skill
// with no queries of its own, in 6 runs a catalog.
const SCRIPTED = {
  "csv-stats": { "csv-stats": 1, "chart-maker": 1 },
  "not:csv-stats": { "chart-maker": 1 },
  "release-notes": { "release-notes": 1, none: 1 },
  "not:release-notes": { "greeting-card": 1 },
};
const RUNS = 6;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  library = join(dir, "library");
  await cp(join(root, "test", "catalog", "fixtures", "library"), library, { recursive: true });
  await rm(join(library, "chart-maker", "evals"), { recursive: true });
  sim = await startSim({ script: await loadSimScript(join(library, "sim-script.json")) });
});
afterEach(async () => {
  await sim.close();
  await cleanup();
});

function options(overrides: Partial<CatalogOptions> = {}): CatalogOptions {
  return {
    dir: library,
    workspace: join(dir, "ws"),
    runs: 1,
    concurrency: 4,
    timeoutSeconds: 60,
    retry: fastRetry,
    store: {},
    createAgent: async () => ({
      ...(await createAgent("claude-code", { binary: agentDouble, simulatorUrl: sim.url })),
      simScript: join(library, "sim-script.json"),
    }),
    ...overrides,
  };
}

// One catalog, and the model requests it sent to the sim.
async function catalog(overrides: Partial<CatalogOptions> = {}) {
  const before = sim.log.length;
  const summary = await runCatalog(options(overrides));
  return { summary, requests: sim.log.slice(before) };
}

describe("catalog with the result store, shards and resume, against the Claude Code test double and the sim", () => {
  it("serves an unchanged library without a model request; one changed description re-runs every query; --fresh reads nothing", async () => {
    const first = await catalog();
    expect(first.requests.length).toBeGreaterThanOrEqual(RUNS);
    expect(first.summary.reused).toBe(0);
    expect(first.summary.results.confusion).toEqual(SCRIPTED);

    const second = await catalog();
    expect(second.requests).toEqual([]);
    expect(second.summary.catalogDir).toBe(join(dir, "ws", "catalog-2"));
    expect(second.summary.reused).toBe(RUNS);
    expect(second.summary.results.confusion).toEqual(SCRIPTED);
    const written = CatalogResults.parse(
      JSON.parse(await readFile(join(second.summary.catalogDir, "catalog.json"), "utf8")),
    );
    for (const run of written.runs)
      expect(run).toMatchObject({ cost_usd: 0, reused_from: { iteration: "catalog-1", run: run.dir } });
    // The copied run folder is this catalog's: its record names its place here.
    const copied = JSON.parse(
      await readFile(
        join(second.summary.catalogDir, "csv-stats", "query-2", "run-1", "catalog-run.json"),
        "utf8",
      ),
    );
    expect(copied).toMatchObject({ dir: "csv-stats/query-2/run-1", fired: "chart-maker" });

    const fresh = await catalog({ store: { fresh: true } });
    expect(fresh.requests.length).toBeGreaterThanOrEqual(RUNS);
    expect(fresh.summary.reused).toBe(0);

    // greeting-card has no queries of its own; changing its description still changes every run's key.
    const card = join(library, "greeting-card", "SKILL.md");
    await writeFile(
      card,
      (await readFile(card, "utf8")).replace(
        /description: .*/,
        "description: Writes greeting cards for any occasion.",
      ),
    );
    const changed = await catalog();
    expect(changed.summary.reused).toBe(0);
    const queries = first.summary.results.runs.map((r) => r.query);
    expect(queries.filter((q) => changed.requests.some((r) => r.prompt === q)).length).toBe(RUNS);
    expect(changed.summary.results.confusion).toEqual(SCRIPTED);
  }, 300_000);

  it("splits into shards that record the plan; merge refuses catalog folders; the shards' store makes the whole catalog free", async () => {
    const cache = join(dir, "cache");
    const shards = [];
    for (const index of [1, 2])
      shards.push(
        await catalog({
          workspace: join(dir, `shard-${index}`),
          store: { dir: cache },
          shard: { index, count: 2 },
        }),
      );
    const [one, two] = shards.map((s) => s.summary);
    expect(one!.results.runs.length + two!.results.runs.length).toBe(RUNS);
    const dirs = new Set([...one!.results.runs, ...two!.results.runs].map((r) => r.dir));
    expect(dirs.size).toBe(RUNS);
    const plans = await Promise.all(
      shards.map(async (s) =>
        CatalogPlan.parse(
          JSON.parse(await readFile(join(s.summary.catalogDir, "catalog-plan.json"), "utf8")),
        ),
      ),
    );
    expect(plans.map((p) => [p.shard?.index, p.shard?.count, p.status])).toEqual([
      [1, 2, "complete"],
      [2, 2, "complete"],
    ]);
    expect(plans[0]!.shard!.plan_hash).toBe(plans[1]!.shard!.plan_hash);
    expect(one!.results.shard).toMatchObject({ index: 1, count: 2 });

    await expect(
      mergeShards({ shardDirs: [join(dir, "shard-1"), join(dir, "shard-2")], into: join(dir, "merged") }),
    ).rejects.toThrow(`${join(dir, "shard-1")} is a catalog folder`);
    const cli = await skillgymHereOnDouble([
      "merge",
      join(dir, "shard-1"),
      join(dir, "shard-2"),
      "--into",
      join(dir, "merged"),
    ]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain("is a catalog folder");
    expect(cli.stderr).toContain("--cache");

    const whole = await catalog({ workspace: join(dir, "whole"), store: { dir: cache } });
    expect(whole.requests).toEqual([]);
    expect(whole.summary.reused).toBe(RUNS);
    expect(whole.summary.results.confusion).toEqual(SCRIPTED);
    expect(whole.summary.results.shard).toBeUndefined();
  }, 300_000);

  it("resumes an interrupted catalog in its own folder: finished runs are kept, only the rest is asked", async () => {
    const stop = new AbortController();
    let ended = 0;
    const first = await catalog({
      store: undefined,
      concurrency: 1,
      signal: stop.signal,
      reporter: {
        onRunEnd: () => {
          if (++ended === 3) stop.abort();
        },
      },
    });
    expect(first.summary.cancelled).toBe(true);
    const plan = CatalogPlan.parse(
      JSON.parse(await readFile(join(first.summary.catalogDir, "catalog-plan.json"), "utf8")),
    );
    expect(plan.status).toBe("interrupted");
    const kept = first.summary.results.runs;
    expect(kept.length).toBe(3);

    const again = await catalog({ store: undefined });
    expect(again.summary).toMatchObject({ resumed: true, cancelled: false, reused: 0 });
    expect(again.summary.catalogDir).toBe(first.summary.catalogDir);
    const asked = new Set(again.requests.map((r) => r.prompt));
    const queries = again.summary.results.runs.map((r) => r.query);
    expect(queries.filter((q) => asked.has(q)).length).toBe(RUNS - kept.length);
    for (const run of kept) expect(asked.has(run.query)).toBe(false);
    expect(again.summary.results.confusion).toEqual(SCRIPTED);

    // A finished catalog is not resumed: the next one gets a folder of its own.
    const next = await catalog({ store: undefined, runs: 1 });
    expect(next.summary).toMatchObject({ resumed: false });
    expect(next.summary.catalogDir).toBe(join(dir, "ws", "catalog-2"));
  }, 300_000);
});
