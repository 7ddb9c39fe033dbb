import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TriggerRun } from "../../src/contracts/run-record.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { createBudget } from "../../src/run/budget.js";
import { openStore } from "../../src/store/index.js";
import { runTriggers, type TriggerOptions } from "../../src/triggers/index.js";
import { triggerRunKeys } from "../../src/triggers/reuse-trigger.js";
import { useSimDouble } from "../agent-double/use-sim-double.js";
import { fastRetry, readJson } from "../e2e/helpers.js";
import { haikuTriggerOptions, writeHaikuSkill } from "./haiku-triggers.js";

// What trigger runs cost when the agent is not simulated: the test double's result line gives each run's dollars,
// which the budget counts and the result store keeps. runTriggers in this process, the claude-code adapter on the
// double; no query loads the skill, so every run ends with its result line.
const script = SimScript.parse({ rules: [{ skill: "none", without_skill: [{ text: "Sure." }] }] });

const fx = useSimDouble(script, (dir) =>
  writeHaikuSkill(dir, [
    { query: "explain what a monad is", should_trigger: false },
    { query: "what is the capital of France", should_trigger: false },
  ]),
);

// The double as a paid agent: its runs are priced from its own result line.
const paid = async () => ({
  ...(await fx.agent()),
  simulated: false,
});

const options = (workspace: string, overrides: Partial<TriggerOptions> = {}): TriggerOptions =>
  haikuTriggerOptions(fx.dir, workspace, {
    retry: { ...fastRetry, attempts: 1 },
    store: { dir: join(fx.dir, "store") },
    createAgent: paid,
    ...overrides,
  });

describe("a paid trigger eval", () => {
  it("stops once the budget is spent, and a stored run keeps what it cost", async () => {
    // The first run may start (its estimate fits); what it spent leaves no room for the second.
    const began = Date.now();
    const spent = await runTriggers(options("ws-budget", { budget: createBudget(1e-8, 1e-9) }));
    expect(spent.cancelled).toBe(true);
    expect(spent.simulated).toBe(false);
    expect(spent.records).toHaveLength(1);
    const [first] = spent.records;
    const cost = first?.record.cost_usd ?? 0;
    expect(cost).toBeGreaterThan(1e-8);
    expect(TriggerRun.parse(await readJson(join(first!.spec.runDir, "trigger.json"))).cost_usd).toBe(cost);
    // How long the run took: within the eval's own time.
    expect(first?.durationMs).toBeGreaterThanOrEqual(0);
    expect(first?.durationMs).toBeLessThanOrEqual(Date.now() - began);

    // Another workspace on the same store: that run is copied in for free, its source keeping what it cost.
    const again = await runTriggers(options("ws-again"));
    expect(again.cancelled).toBe(false);
    const reused = again.records.filter((r) => r.reusedFrom !== undefined);
    expect(reused).toHaveLength(1);
    expect(reused[0]?.reusedFrom).toMatchObject({ iteration: "iteration-1", cost_usd: cost });
    expect(reused[0]?.record.cost_usd).toBe(0);
  }, 60_000);
});

describe("a stored trigger run that was cancelled", () => {
  it("is not served: the run is made again", async () => {
    const agent = await paid();
    const query = "explain what a monad is";
    const runDir = join(fx.dir, "cancelled-run");
    await mkdir(runDir, { recursive: true });
    await writeFile(
      join(runDir, "trigger.json"),
      JSON.stringify({
        query,
        should_trigger: false,
        synthetic_name: "haiku-sg-00000001",
        triggered: false,
        skills_loaded: [],
        stolen_by: [],
        outcome: "cancelled",
        attempts: 1,
        duration_ms: 5,
      }),
    );
    const key = await triggerRunKeys(
      { agent, skillName: "haiku", timeoutMs: 60_000, companions: [], installed: [] },
      "Writes a haiku poem.",
    )({ query, runNumber: 1 });
    const store = join(fx.dir, "store-cancelled");
    await openStore({ dir: store }).put("trigger-run", key, {
      runDir,
      source: { iteration: "iteration-1", run: "triggers/query-1/run-1", workspace: fx.dir, cost_usd: 0 },
    });
    const summary = await runTriggers(
      options("ws-cancelled", { store: { dir: store }, createAgent: async () => agent }),
    );
    expect(summary.records.map((r) => [r.queryIndex, r.outcome, r.reusedFrom])).toEqual([
      [0, "success", undefined],
      [1, "success", undefined],
    ]);
    expect(summary.results.results.map((r) => r.runs)).toEqual([1, 1]);
  }, 60_000);
});
