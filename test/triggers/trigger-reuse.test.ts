import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TriggerRun } from "../../src/contracts/run-record.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { createBudget } from "../../src/run/budget.js";
import { runTriggers, type TriggerOptions } from "../../src/triggers/index.js";
import { forecastTriggerRuns } from "../../src/triggers/store-forecast.js";
import { useSimDouble } from "../agent-double/use-sim-double.js";
import { fastRetry, readJson, skillMd, writeTree } from "../e2e/helpers.js";

// The result store (a stored verdict copied in, free; the forecast of what it serves) and an interrupted trigger eval
// resumed in its own iteration, with runTriggers in this process and the claude-code adapter on the test double.
const script = SimScript.parse({
  rules: [
    { match: "^q1 ", skill: "~-sg-", steps: [{ text: "Done." }] },
    // q3's first session fails (a server error): the run errs; later ones are answered.
    { match: "^q3 ", fault: { status: 500, sessions: 1 } },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
});

const fx = useSimDouble(script, async (dir) => {
  const q1 = { query: "q1 write a haiku about rain", should_trigger: true };
  const q2 = { query: "q2 explain what a monad is", should_trigger: false };
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd("haiku", "Writes a haiku poem.", "Write a haiku."),
    "haiku/evals/triggers.json": JSON.stringify([q1, q2]),
    "calm/SKILL.md": skillMd("calm", "Writes a calm haiku poem.", "Write it."),
    "calm/evals/triggers.json": JSON.stringify([q1, q2]),
    "storm/SKILL.md": skillMd("storm", "Writes a stormy haiku poem.", "Write it."),
    "storm/evals/triggers.json": JSON.stringify([
      { query: "q3 a haiku about thunder", should_trigger: false },
    ]),
  });
});
// The claude-code adapter on the test double, against this file's sim.
const double = () => fx.agent();

function options(skill: string, overrides: Partial<TriggerOptions> = {}): TriggerOptions {
  return {
    skillPath: join(fx.dir, skill),
    workspace: join(fx.dir, `ws-${skill}`),
    runs: 2,
    threshold: 0.5,
    concurrency: 2,
    timeoutSeconds: 60,
    retry: { ...fastRetry, attempts: 1 },
    createAgent: () => double(),
    ...overrides,
  };
}

const sessions = () => new Set(fx.sim.log.map((e) => e.session)).size;
const where = (r: { queryIndex: number; spec: { runNumber: number } }) =>
  `q${r.queryIndex + 1}-r${r.spec.runNumber}`;

describe("trigger runs and the result store", () => {
  it("forecasts, stores each run, and serves it again for free", async () => {
    // One at a time: q1's first run has ended before its second could be taken, whatever the load.
    const store = { store: {}, concurrency: 1 };
    const ws = join(fx.dir, "ws-haiku");
    const before = await forecastTriggerRuns(options("haiku", store));
    expect(before).toEqual({
      runs: 4,
      served: 0,
      toRun: 4,
      judgeServed: 0,
      judgeToRun: 0,
      workspace: ws,
      storeDir: join(ws, ".skillgym-cache"),
    });

    const first = await runTriggers(options("haiku", store));
    expect(first.records.map(where).sort()).toEqual(["q1-r1", "q2-r1", "q2-r2"]);
    expect(first.records.every((r) => r.reusedFrom === undefined)).toBe(true);
    const madeSessions = sessions();

    // q1 settled on its stored first run; q2's two runs are stored.
    expect(await forecastTriggerRuns(options("haiku", store))).toMatchObject({
      runs: 4,
      served: 3,
      toRun: 0,
      storeDir: join(ws, ".skillgym-cache"),
    });
    // Every run asked for: q1's second was never made.
    expect(await forecastTriggerRuns(options("haiku", { ...store, allRuns: true }))).toMatchObject({
      served: 3,
      toRun: 1,
    });
    // Another model's runs, or a fresh store, serve nothing.
    expect(await forecastTriggerRuns(options("haiku", { ...store, model: "other" }))).toMatchObject({
      served: 0,
      toRun: 4,
    });
    const fresh = await forecastTriggerRuns(options("haiku", { store: { fresh: true } }));
    expect(fresh).toEqual({ runs: 4, served: 0, toRun: 4, judgeServed: 0, judgeToRun: 0, workspace: ws });
    // A shard forecasts its own share, every run of it.
    const shard = await forecastTriggerRuns(options("haiku", { ...store, shard: { index: 1, count: 2 } }));
    const other = await forecastTriggerRuns(options("haiku", { ...store, shard: { index: 2, count: 2 } }));
    expect(shard.runs + other.runs).toBe(4);
    expect(shard.served + other.served).toBe(3);
    expect(shard.toRun + other.toRun).toBe(1);
    expect(shard.runs).toBeGreaterThan(0);
    expect(other.runs).toBeGreaterThan(0);

    const second = await runTriggers(options("haiku", store));
    expect(second.iterationDir).toBe(join(ws, "iteration-2"));
    // No run reached the agent again.
    expect(sessions()).toBe(madeSessions);
    const reused = second.records.filter((r) => r.reusedFrom !== undefined);
    expect(reused.map(where).sort()).toEqual(["q1-r1", "q2-r1", "q2-r2"]);
    for (const run of reused) {
      expect(run.reusedFrom).toEqual({
        iteration: "iteration-1",
        run: `triggers/query-${run.queryIndex + 1}/run-${run.spec.runNumber}`,
        workspace: ws,
        cost_usd: 0,
      });
      const record = TriggerRun.parse(await readJson(join(run.spec.runDir, "trigger.json")));
      expect(record.cost_usd).toBe(0);
      expect(record).toMatchObject({ reused_from: run.reusedFrom, synthetic_name: run.spec.syntheticName });
    }
    expect(second.results.results.map((r) => [r.runs, r.triggers, r.errors])).toEqual([
      [1, 1, 0],
      [2, 0, 0],
    ]);
    expect(second.records.find((r) => r.queryIndex === 0)).toMatchObject({ triggered: true, skipped: true });
  }, 90_000);

  it("does not store a run that erred: the next eval makes it again", async () => {
    const store = { store: {}, runs: 1 };
    const first = await runTriggers(options("storm", store));
    expect(first.records.map((r) => [where(r), r.error !== undefined])).toEqual([["q1-r1", true]]);
    expect(await forecastTriggerRuns(options("storm", store))).toMatchObject({ served: 0, toRun: 1 });
    const second = await runTriggers(options("storm", store));
    expect(second.records.map((r) => [where(r), r.error, r.reusedFrom])).toEqual([
      ["q1-r1", undefined, undefined],
    ]);
    expect(second.results.results.map((r) => [r.runs, r.errors, r.pass])).toEqual([[1, 0, true]]);
  }, 90_000);

  it("resumes an interrupted eval in its own iteration, keeping the runs it finished", async () => {
    const ws = join(fx.dir, "ws-calm");
    const controller = new AbortController();
    const interrupted = await runTriggers(
      options("calm", {
        concurrency: 1,
        signal: controller.signal,
        reporter: { onRunEnd: () => controller.abort() },
      }),
    );
    expect(interrupted.cancelled).toBe(true);
    expect(interrupted.records.map(where)).toEqual(["q1-r1"]);
    const triggersDir = join(ws, "iteration-1", "triggers");
    expect(await readdir(triggersDir)).not.toContain("trigger-results.json");
    expect(await readJson(join(triggersDir, "plan.json"))).toMatchObject({ status: "interrupted" });

    const plans: { resumed: boolean }[] = [];
    const ended: string[] = [];
    const resumed = await runTriggers(
      options("calm", {
        reporter: {
          onPlan: (info) => plans.push(info),
          onRunEnd: (record) => ended.push(`${where(record)}${record.skipped ? " kept" : ""}`),
        },
      }),
    );
    expect(plans.map((p) => p.resumed)).toEqual([true]);
    expect(resumed.iterationDir).toBe(join(ws, "iteration-1"));
    expect(resumed.cancelled).toBe(false);
    expect(ended.sort()).toEqual(["q1-r1 kept", "q2-r1", "q2-r2"]);
    expect(resumed.results.results.map((r) => r.runs)).toEqual([1, 2]);
    expect(await readJson(join(triggersDir, "plan.json"))).toMatchObject({ status: "complete" });

    // A complete eval is not resumed: the next goes into a new iteration. So does an unfinished one of another plan.
    await writeFile(
      join(triggersDir, "plan.json"),
      JSON.stringify({ ...(await readJson(join(triggersDir, "plan.json"))), status: "interrupted" }),
    );
    // (An exhausted budget starts no run: only the iteration chosen is looked at.)
    const nothing = () => createBudget(0, 1);
    const otherPlan = await runTriggers(options("calm", { runs: 1, budget: nothing() }));
    expect(otherPlan.iterationDir).toBe(join(ws, "iteration-2"));

    // A given iteration folder (`run`'s) is a resume once it holds a plan.
    const given = join(fx.dir, "given-iteration");
    const into = await runTriggers(
      options("calm", {
        runs: 1,
        budget: nothing(),
        iterationDir: given,
        reporter: { onPlan: (i) => plans.push(i) },
      }),
    );
    expect(into.iterationDir).toBe(given);
    expect(into.resultsFile).toBe(join(given, "triggers", "trigger-results.json"));
    expect(plans.at(-1)?.resumed).toBe(false);
  }, 90_000);
});
