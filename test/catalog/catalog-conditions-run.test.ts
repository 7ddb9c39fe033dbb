import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN_FILE } from "../../src/catalog/catalog-folder.js";
import { planCatalog } from "../../src/catalog/dry-run.js";
import { type CatalogOptions, runCatalog } from "../../src/catalog/run-catalog.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { useSimDouble } from "../agent-double/use-sim-double.js";
import { fastRetry, readJson, skillMd, writeTree } from "../e2e/helpers.js";

// runCatalog in this process on the agent test double, with what the flags pass on to every run: the model ("M1"
// loads beta only when the opus model is asked for), the project ("P1" loads alpha only in a folder holding
// marker.txt, or whose request lists the project's own skill, house-style), the prior conversation, the store, the signal.
// In the screened library, "V…" queries load alpha when replayed and nothing when the agent asks them.
const script = SimScript.parse({
  rules: [
    { match: "^V", replayed: true, skill: "~alpha-sg-" },
    { match: "^Z1 ", skill: "~zeta-sg-" },
    { match: "^M1 ", model: "opus", skill: "~beta-sg-" },
    { match: "^P1 ", files: "^marker\\.txt$", skill: "~alpha-sg-" },
    { match: "^P1 ", skills: "^house-style$", skill: "~alpha-sg-" },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
});

const fx = useSimDouble(script, (dir) =>
  writeTree(dir, {
    "lib/alpha/SKILL.md": skillMd("alpha", "Draws charts.", "Draw."),
    "lib/alpha/evals/triggers.json": JSON.stringify([
      { query: "M1 draw the chart", should_trigger: false },
      { query: "P1 chart the project", should_trigger: true },
    ]),
    "lib/beta/SKILL.md": skillMd("beta", "Summarises CSV files.", "Summarise."),
    "screened/alpha/SKILL.md": skillMd("alpha", "Draws charts.", "Draw."),
    "screened/alpha/evals/triggers.json": JSON.stringify([
      { query: "V1 draw it", should_trigger: true },
      { query: "V2 plot it", should_trigger: true },
      { query: "V3 chart it", should_trigger: true },
    ]),
    "screened/beta/SKILL.md": skillMd("beta", "Summarises CSV files.", "Summarise."),
    // The same two skills, in folders whose order is not their names' in the first library, and is in the second.
    "order-1/a/SKILL.md": skillMd("zeta", "Writes release notes.", "Write."),
    "order-1/a/evals/triggers.json": JSON.stringify([{ query: "Z1 write the notes", should_trigger: true }]),
    "order-1/b/SKILL.md": skillMd("alpha", "Draws charts.", "Draw."),
    "order-2/a/SKILL.md": skillMd("alpha", "Draws charts.", "Draw."),
    "order-2/b/SKILL.md": skillMd("zeta", "Writes release notes.", "Write."),
    "order-2/b/evals/triggers.json": JSON.stringify([{ query: "Z1 write the notes", should_trigger: true }]),
    "project/marker.txt": "the user's project\n",
    "project/.claude/skills/house-style/SKILL.md": skillMd(
      "house-style",
      "The project's own style.",
      "Style.",
    ),
    // The result store lives inside the project, and holds an entry already: the project's copy leaves it out.
    "project/cache/v1/earlier.json": "{}\n",
    "context.json": JSON.stringify([
      { role: "user", content: "Hello." },
      { role: "assistant", content: "Hi." },
    ]),
  }),
);
const lib = () => join(fx.dir, "lib");
const project = () => join(fx.dir, "project");

function options(workspace: string, overrides: Partial<CatalogOptions> = {}): CatalogOptions {
  return {
    dir: lib(),
    workspace: join(fx.dir, workspace),
    runs: 1,
    concurrency: 1,
    timeoutSeconds: 60,
    retry: { ...fastRetry, attempts: 1 },
    createAgent: () => fx.agent(),
    ...overrides,
  };
}

describe("runCatalog passes the flags on to every run", () => {
  const conditioned = () =>
    options("ws-conditions", {
      model: "claude-opus-4-1",
      project: project(),
      context: join(fx.dir, "context.json"),
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
    const asked = fx.sim.log.filter((e) => e.prompt === "P1 chart the project");
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

describe("runCatalog held back by --max-cost", () => {
  const held = (workspace: string, overrides: Partial<CatalogOptions> = {}) =>
    options(workspace, { maxCostUsd: 0.001, ...overrides });

  it("takes an agent without replay when --screen is not asked, and records a sandboxed agent's catalog as sandboxed", async () => {
    const summary = await runCatalog(
      held("ws-held", {
        createAgent: async () => ({
          ...(await fx.agent()),
          name: "opencode",
          sandboxed: true,
        }),
      }),
    );
    expect(summary).toMatchObject({ cancelled: true, budgetExhausted: true });
    expect(summary.results).toMatchObject({ agent: { name: "opencode" }, sandbox: true, runs: [] });
  });

  it("reports the shard it plans, and leaves no temp folder behind", async () => {
    // This process's catalog temp folders (skillgym-catalog.<pid>.…).
    const mine = async () =>
      (await readdir(tmpdir())).filter((n) => n.startsWith(`skillgym-catalog.${process.pid}.`)).sort();
    const before = await mine();
    const planned: unknown[] = [];
    const summary = await runCatalog(
      held("ws-held-shard", {
        shard: { index: 1, count: 2 },
        project: project(),
        reporter: { onPlan: (info) => planned.push(info) },
      }),
    );
    expect(planned).toEqual([expect.objectContaining({ shard: { index: 1, count: 2 } })]);
    expect(summary.results.shard).toMatchObject({ index: 1, count: 2 });
    expect(await mine()).toEqual(before);
  });
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

describe("runCatalog --screen replay", () => {
  it("replays with the capture made under the model and in the project's copy", async () => {
    const summary = await runCatalog(
      options("ws-screen-conditions", {
        screen: { kind: "replay" },
        model: "claude-opus-4-1",
        project: project(),
      }),
    );
    expect(summary.results.runs.map((r) => `${r.query}: ${r.fired} by ${r.decided_by}`)).toEqual([
      "M1 draw the chart: beta by replay",
      "P1 chart the project: alpha by replay",
    ]);
  }, 60_000);

  it("--screen-verify below the mark: warns, and the agent makes the replayed runs again", async () => {
    const warnings: string[] = [];
    const summary = await runCatalog(
      options("ws-verify", {
        dir: join(fx.dir, "screened"),
        screen: { kind: "replay", verifyPercent: 50 },
        reporter: { onWarning: (message) => warnings.push(message) },
      }),
    );
    expect(warnings).toEqual([
      "--screen-verify: replay agreed with the agent on 0 of 1 checked runs, below 95%; the agents make the replayed runs again and every run after",
    ]);
    expect(summary.results.runs.map((r) => `${r.query}: ${r.fired} by ${r.decided_by}`)).toEqual([
      "V1 draw it: none by agent",
      "V2 plot it: none by agent",
      "V3 chart it: none by agent",
    ]);
    // Two runs were checked against their replay (and disagreed); the one replayed unchecked was made again, with
    // nothing to agree with.
    expect(summary.results.runs.map((r) => r.replay_agreed).sort()).toEqual([false, false, undefined]);
    expect(summary.results.runs.filter((r) => !Object.hasOwn(r, "replay_agreed"))).toHaveLength(1);
    // Every request, replayed or the agent's, lists the library under names of eight hex digits.
    const asked = fx.sim.log.filter((e) => e.prompt.startsWith("V"));
    const names = asked.flatMap((e) => e.listed ?? []).filter((n) => n.includes("-sg-"));
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => /^(alpha|beta)-sg-[0-9a-f]{8}$/.test(n))).toBe(true);
    expect(summary.results.screen).toMatchObject({
      decided_by_replay: 0,
      decided_by_agent: 3,
      verified: { runs: 2, agreed: 0, fell_back: true },
    });
  }, 60_000);

  it("a capture in the store is read as the skill it was made of, whatever order the folders put the library in", async () => {
    const store = { dir: join(fx.dir, "shared-cache") };
    const screened = (library: string) =>
      options(`ws-${library}`, { dir: join(fx.dir, library), screen: { kind: "replay" }, store });
    const first = await runCatalog(screened("order-1"));
    const second = await runCatalog(screened("order-2"));
    for (const summary of [first, second])
      expect(summary.results.runs.map((r) => `${r.query}: ${r.fired} by ${r.decided_by}`)).toEqual([
        "Z1 write the notes: zeta by replay",
      ]);
  }, 60_000);

  it("Ctrl-C as the first run starts: the capture and the run are cancelled, and counted neither way", async () => {
    const controller = new AbortController();
    const summary = await runCatalog(
      options("ws-screen-cancel", {
        dir: join(fx.dir, "screened"),
        screen: { kind: "replay" },
        signal: controller.signal,
        reporter: { onRunStart: () => controller.abort() },
      }),
    );
    expect(summary.cancelled).toBe(true);
    expect(summary.results.runs).toEqual([]);
    expect(summary.results.screen).toMatchObject({ decided_by_replay: 0, decided_by_agent: 0 });
  }, 60_000);
});
