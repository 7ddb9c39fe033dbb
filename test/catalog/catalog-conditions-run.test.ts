import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import { PLAN_FILE } from "../../src/catalog/catalog-folder.js";
import { planCatalog } from "../../src/catalog/dry-run.js";
import { type CatalogOptions, runCatalog } from "../../src/catalog/run-catalog.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { executableDouble } from "../agent-double/index.js";
import { fastRetry, readJson, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// runCatalog in this process on the agent test double, with what the flags pass on to every run: the model ("M1"
// loads beta only when the opus model is asked for), the project ("P1" loads alpha only in a folder holding
// marker.txt), the prior conversation, the store, the signal.
const script = SimScript.parse({
  rules: [
    { match: "^M1 ", model: "opus", skill: "~beta-sg-" },
    { match: "^P1 ", files: "^marker\\.txt$", skill: "~alpha-sg-" },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
});

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;
let binary: string;
const lib = () => join(dir, "lib");
const project = () => join(dir, "project");
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  binary = await executableDouble(dir);
  await writeTree(dir, {
    "lib/alpha/SKILL.md": skillMd("alpha", "Draws charts.", "Draw."),
    "lib/alpha/evals/triggers.json": JSON.stringify([
      { query: "M1 draw the chart", should_trigger: false },
      { query: "P1 chart the project", should_trigger: true },
    ]),
    "lib/beta/SKILL.md": skillMd("beta", "Summarises CSV files.", "Summarise."),
    "project/marker.txt": "the user's project\n",
    // The result store lives inside the project, and holds an entry already: the project's copy leaves it out.
    "project/cache/v1/earlier.json": "{}\n",
    "context.json": JSON.stringify([
      { role: "user", content: "Hello." },
      { role: "assistant", content: "Hi." },
    ]),
  });
  sim = await startSim({ script });
});
afterAll(async () => {
  await sim?.close();
  await cleanup();
});

function options(workspace: string, overrides: Partial<CatalogOptions> = {}): CatalogOptions {
  return {
    dir: lib(),
    workspace: join(dir, workspace),
    runs: 1,
    concurrency: 1,
    timeoutSeconds: 60,
    retry: { ...fastRetry, attempts: 1 },
    createAgent: () => createClaudeCodeAgent({ binary, simulatorUrl: sim.url }),
    ...overrides,
  };
}

describe("runCatalog passes the flags on to every run", () => {
  const conditioned = () =>
    options("ws-conditions", {
      model: "claude-opus-4-1",
      project: project(),
      context: join(dir, "context.json"),
      store: { dir: join(project(), "cache") },
    });

  it("asks with the model, starts in the project's copy, and a dry run finds every run in the store", async () => {
    const summary = await runCatalog(conditioned());
    expect(summary.cancelled).toBe(false);
    expect(summary.results.model).toBe("claude-opus-4-1");
    expect(summary.results.runs.map((r) => `${r.query}: ${r.fired}`)).toEqual([
      "M1 draw the chart: beta",
      "P1 chart the project: alpha",
    ]);
    // The runs continued the conversation.
    const asked = sim.log.filter((e) => e.prompt === "P1 chart the project");
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((e) => e.history?.join(" ") === "Hello. Hi.")).toBe(true);
    // The dry run keys the runs as the catalog did (the model, the project, the conversation): all are stored; and
    // it hashes the same copy of the project, the store inside it left out.
    const dry = await planCatalog(conditioned(), true);
    expect(dry.store?.catalogRuns).toMatchObject({ runs: 2, served: 2, toRun: 0 });
    expect(dry.conditions).toEqual(summary.results.conditions);
    expect(dry.conditions?.project_hash).toMatch(/^[0-9a-f]{64}$/);
  }, 60_000);

  it("without the model, the same query loads nothing: the model is what the runs asked for", async () => {
    const summary = await runCatalog(options("ws-plain", { only: ["alpha"] }));
    expect(summary.results.model).toBeUndefined();
    expect(summary.results.runs.map((r) => `${r.query}: ${r.fired}`)).toEqual([
      "M1 draw the chart: none",
      "P1 chart the project: none",
    ]);
  }, 60_000);
});

describe("runCatalog cancelled", () => {
  it("Ctrl-C as the first run starts: that run is cancelled and left out, no other starts, the folder is left to resume", async () => {
    const controller = new AbortController();
    const started: string[] = [];
    const summary = await runCatalog(
      options("ws-cancel", {
        signal: controller.signal,
        reporter: {
          onRunStart: (spec) => {
            started.push(spec.query);
            controller.abort();
          },
        },
      }),
    );
    expect(started).toEqual(["M1 draw the chart"]);
    expect(summary.cancelled).toBe(true);
    expect(summary.results.runs).toEqual([]);
    expect(await readdir(summary.catalogDir)).not.toContain("catalog.json");
    expect(await readJson(join(summary.catalogDir, PLAN_FILE))).toMatchObject({ status: "interrupted" });
  }, 60_000);

  it("Ctrl-C as the last run ends: every run is kept, but the catalog is not written and the folder is left to resume", async () => {
    const controller = new AbortController();
    let ended = 0;
    const summary = await runCatalog(
      options("ws-late-cancel", {
        signal: controller.signal,
        reporter: {
          onRunEnd: () => {
            ended += 1;
            if (ended === 2) controller.abort();
          },
        },
      }),
    );
    expect(summary.results.runs.map((r) => r.outcome)).toEqual(["success", "success"]);
    expect(summary.cancelled).toBe(true);
    expect(await readdir(summary.catalogDir)).not.toContain("catalog.json");
    expect(await readJson(join(summary.catalogDir, PLAN_FILE))).toMatchObject({ status: "interrupted" });
  }, 60_000);
});
