import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TriggerRun } from "../../src/contracts/run-record.js";
import { startViewServer } from "../../src/report/index.js";
import { skillgym } from "../cli/cli-process.js";
import { readJson, skillMd, tempDir, writeTree } from "../e2e/helpers.js";
import { launchBrowser, openPage, waitReady } from "../report/browser.js";

const agents = ["claude-code", "codex"] as const;
let dir: string;
let cleanup: () => Promise<void>;
let first: ReturnType<typeof skillgym>;
let second: ReturnType<typeof skillgym>;

const ws = () => join(dir, "ws");
const common = () => [
  join(dir, "haiku"),
  "--agent",
  agents.join(","),
  "--simulate",
  "--workspace",
  ws(),
  "--runs",
  "1",
  "--trigger-runs",
  "1",
];

// `run --agent claude-code,codex --simulate` twice on one workspace: the real binaries against the sim, then the store.
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd(
      "haiku",
      "Writes a haiku. Use when the user asks for a haiku.",
      "Write a haiku.",
    ),
    "haiku/evals/evals.json": JSON.stringify({
      evals: [
        {
          id: 1,
          prompt: "write a haiku into poem.txt",
          expectations: [],
          checks: [{ type: "file_exists", path: "poem.txt" }],
        },
      ],
    }),
    "haiku/evals/triggers.json": JSON.stringify([
      { query: "a haiku about the sea please", should_trigger: true },
      { query: "fix my failing build", should_trigger: false },
    ]),
    "haiku/evals/sim-script.json": JSON.stringify({
      rules: [
        {
          match: "haiku into poem",
          skill: "haiku",
          steps: [{ write: { path: "poem.txt", content: "sea\n" } }],
        },
        { match: "about the sea", skill: "~haiku-sg-" },
      ],
    }),
  });
  first = skillgym(["run", ...common()]);
  second = skillgym(["run", ...common()]);
}, 400_000);
afterAll(() => cleanup?.());

const exists = async (path: string) => (await stat(path).catch(() => undefined)) !== undefined;

describe("the result store in a run of several agents", () => {
  it("serves each agent's second run and says per agent what was spent and what reuse saved", () => {
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    for (const agent of agents) {
      // 2 eval runs and 2 trigger runs per agent, every one served.
      expect(second.stdout).toContain(
        `cost [${agent}]: $0.0000 spent on 0 runs; 4 runs reused from the result store saved $0.0000`,
      );
      expect(second.stderr).toContain(`reused from iteration-1/${agent}/eval-1/without_skill/run-1`);
      expect(second.stderr).toContain(`reused from iteration-1/${agent}/triggers/query-2/run-1`);
    }
    expect(second.stdout).toContain("cost: $0.0000 (all agents)");
  });

  it("marks each reused run with the iteration folder and the run inside it, through the agent's folder", async () => {
    for (const agent of agents) {
      const iteration2 = join(ws(), "iteration-2", agent);
      const timing = await readJson(join(iteration2, "eval-1", "with_skill", "run-1", "timing.json"));
      expect(timing.reused_from).toEqual({
        iteration: "iteration-1",
        run: `${agent}/eval-1/with_skill/run-1`,
        workspace: ws(),
        cost_usd: 0,
      });
      const trigger = TriggerRun.parse(
        await readJson(join(iteration2, "triggers", "query-1", "run-1", "trigger.json")),
      );
      expect(trigger.reused_from).toMatchObject({
        iteration: "iteration-1",
        run: `${agent}/triggers/query-1/run-1`,
      });
      // workspace / iteration / run is the folder the run was copied from.
      const from = timing.reused_from as { workspace: string; iteration: string; run: string };
      expect(await exists(join(from.workspace, from.iteration, from.run, "timing.json"))).toBe(true);
    }
  });

  it("forecasts the store per agent in --dry-run, so served work is seconds, sharded or not", () => {
    const text = skillgym(["run", ...common(), "--dry-run"]);
    expect(text.code, text.stderr).toBe(0);
    for (const agent of agents) expect(text.stdout).toContain(`${agent}:\n  estimated wall time: about `);
    expect(text.stdout.match(/ {4}eval runs: 2 of 2 served by the store, 0 to run/g)).toHaveLength(2);
    expect(text.stdout.match(/ {4}trigger runs: 2 of 2 served by the store, at most 0 to run/g)).toHaveLength(
      2,
    );

    const json = skillgym(["run", ...common(), "--dry-run", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout) as {
      agents: { agent: string; wallSeconds: number; store?: { evalRuns?: { served: number } } }[];
      wall_seconds: number;
    };
    expect(plan.agents.map((a) => [a.agent, a.store?.evalRuns?.served])).toEqual([
      ["claude-code", 2],
      ["codex", 2],
    ]);
    // Every run is a copy: 4 per agent in one wave of --concurrency 4, not 4 s per eval run and 3 s per trigger run.
    expect(plan.wall_seconds).toBeLessThan(3);

    const shard = skillgym(["run", ...common(), "--dry-run", "--shard", "1/2"]);
    expect(shard.code, shard.stderr).toBe(0);
    expect(shard.stdout).toMatch(/shard 1\/2: 2 of 4 runs .*, per agent/);
    expect(shard.stdout.match(/ {4}eval runs: 1 of 1 served by the store, 0 to run/g)).toHaveLength(2);
    expect(shard.stdout.match(/ {4}trigger runs: 1 of 1 served by the store/g)).toHaveLength(2);
  });

  it("says under --fresh that the store was not read, per agent", () => {
    const fresh = skillgym(["run", ...common(), "--fresh"]);
    expect(fresh.code, fresh.stderr).toBe(0);
    for (const agent of agents)
      expect(fresh.stdout).toContain(
        `cost [${agent}]: $0.0000 spent on 4 runs; the result store was not read (--fresh): every run was made again and stored`,
      );
    expect(fresh.stderr).not.toContain("reused from");
  }, 300_000);
});

describe("grade on an iteration of several agents", () => {
  it("grades each agent's folder, naming the agent", () => {
    const graded = skillgym(["grade", join(ws(), "iteration-1"), "--simulate", "--force"]);
    expect(graded.code, graded.stderr).toBe(0);
    for (const agent of agents)
      expect(graded.stdout).toContain(
        `${agent}: graded 2 runs, skipped 0 (already graded or errored), 0 failed`,
      );
    expect(graded.stderr).toContain(join(ws(), "iteration-1", "codex", "eval-1", "with_skill", "run-1"));
    const json = skillgym(["grade", join(ws(), "iteration-1"), "--simulate", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      graded: 0,
      skipped: 4,
      agents: agents.map((agent) => ({ agent, iteration_dir: join(ws(), "iteration-1", agent), skipped: 2 })),
    });
  });
});

describe("the viewer on a reused run", () => {
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = browser.context;
  }, 120_000);
  afterAll(() => browser?.close());

  it("marks it reused in the run view and names the run it came from", async () => {
    const server = await startViewServer({ folder: join(ws(), "iteration-2", "codex") });
    try {
      const { page, errors } = await openPage(context);
      await page.goto(server.url);
      await waitReady(page);
      expect(await page.textContent("#run-view .run-head .reused-badge")).toBe("reused");
      const shown = await page.getAttribute("#run-view", "data-run");
      expect(await page.textContent("#run-view .reused-note")).toBe(
        `Reused from the result store: iteration-1/codex/${shown} in ${ws()} (it cost $0.0000 then, $0 now)`,
      );
      const facts = await page.locator("#run-view dl.facts").textContent();
      expect(facts).toContain(`reused fromiteration-1/codex/${shown}`);
      // The Triggers tab counts each query's served runs.
      await page.click("#tab-triggers");
      const marks = page.locator("#panel-triggers .triggers-table .reused-badge");
      expect(await marks.allTextContents()).toEqual(["1 reused", "1 reused"]);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await server.close();
    }
  });

  it("shows no mark on a run made now", async () => {
    const server = await startViewServer({ folder: join(ws(), "iteration-1", "codex") });
    try {
      const { page, errors } = await openPage(context);
      await page.goto(server.url);
      await waitReady(page);
      expect(await page.locator("#run-view .run-head .badge").count()).toBeGreaterThan(0);
      expect(await page.locator("#run-view .reused-badge").count()).toBe(0);
      expect(await page.locator("#run-view .reused-note").count()).toBe(0);
      await page.click("#tab-triggers");
      expect(await page.locator("#panel-triggers .triggers-table tbody tr").count()).toBe(2);
      expect(await page.locator("#panel-triggers .reused-badge").count()).toBe(0);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await server.close();
    }
  });
});
