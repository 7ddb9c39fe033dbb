import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TriggerRun } from "../../src/contracts/run-record.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { createBudget } from "../../src/run/budget.js";
import { runTriggers, type TriggerOptions } from "../../src/triggers/index.js";
import { useSimDouble } from "../agent-double/use-sim-double.js";
import { fastRetry, readJson, skillMd, writeTree } from "../e2e/helpers.js";

// The edges of a trigger eval, with runTriggers in this process and the claude-code adapter on the test double: runs
// kept from an earlier attempt, a 429, the model asked for, a run that times out, a run cancelled while it ran.
const script = SimScript.parse({
  rules: [
    { match: "^e1 ", fault: { status: 429, sessions: 1 }, skill: "~edge-sg-" },
    { match: "^e2 ", model: "sonnet", skill: "~edge-sg-" },
    { match: "^e2 ", skill: "none", without_skill: [{ text: "No." }] },
    { match: "^e3 ", skill: "limerick", steps: [{ bash: "sleep 30" }] },
    { match: "^e5 ", latency_ms: 20_000, skill: "none", without_skill: [{ text: "Late." }] },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
});

const fx = useSimDouble(script, async (dir) => {
  const query = (text: string, should = true) => ({ query: text, should_trigger: should });
  await writeTree(dir, {
    "edge/SKILL.md": skillMd("edge", "Handles edge cases.", "Handle it."),
    "limerick/SKILL.md": skillMd("limerick", "Writes limericks.", "Write one."),
    "suites/one.json": JSON.stringify([query("e0 anything")]),
    "suites/limits.json": JSON.stringify([query("e1 busy service"), query("e2 which model")]),
    "suites/timeout.json": JSON.stringify([query("e3 a slow one")]),
    "suites/cancel.json": JSON.stringify([query("e4 a quick one", false), query("e5 a late one")]),
  });
});
const double = () => fx.agent();
const suite = (name: string) => join(fx.dir, "suites", `${name}.json`);

function options(name: string, overrides: Partial<TriggerOptions> = {}): TriggerOptions {
  return {
    skillPath: join(fx.dir, "edge"),
    evalsPath: suite(name),
    workspace: join(fx.dir, `ws-${name}`),
    runs: 1,
    threshold: 0.5,
    concurrency: 2,
    timeoutSeconds: 60,
    retry: { ...fastRetry, attempts: 1 },
    createAgent: () => double(),
    ...overrides,
  };
}

describe("trigger eval edges", () => {
  it("keeps every run an earlier attempt finished, even one its query's verdict no longer needs", async () => {
    // Both runs of the query are on disk in the given iteration: the first settles the query, the second counts too.
    const given = join(fx.dir, "given");
    for (const run of [1, 2]) {
      const runDir = join(given, "triggers", "query-1", `run-${run}`);
      await mkdir(runDir, { recursive: true });
      const record: TriggerRun = {
        query: "e0 anything",
        should_trigger: true,
        synthetic_name: `edge-sg-0000000${run}`,
        triggered: true,
        skills_loaded: ["edge"],
        stolen_by: [],
        outcome: "stopped",
        attempts: 1,
        duration_ms: 10,
      };
      await writeFile(join(runDir, "trigger.json"), JSON.stringify(record));
    }
    await writeFile(join(given, "triggers", "plan.json"), "{}");
    const summary = await runTriggers(options("one", { runs: 2, concurrency: 1, iterationDir: given }));
    expect(summary.records.map((r) => [r.spec.runNumber, r.skipped, r.spec.syntheticName])).toEqual([
      [1, true, "edge-sg-00000001"],
      [2, true, "edge-sg-00000002"],
    ]);
    expect(summary.results.results[0]).toMatchObject({ runs: 2, triggers: 2, pass: true });
    expect(fx.sim.log).toEqual([]);
  });

  it("names the agent in a shard's plan hash", async () => {
    const hashOf = async (name: string, agent: string) => {
      const summary = await runTriggers(
        options("one", {
          workspace: join(fx.dir, "hash", name),
          shard: { index: 1, count: 2 },
          budget: createBudget(0, 1),
          createAgent: async () => ({ ...(await double()), name: agent }),
        }),
      );
      return (
        (await readJson(join(summary.iterationDir, "triggers", "plan.json"))).shard as { plan_hash: string }
      ).plan_hash;
    };
    expect(await hashOf("a", "claude-code")).not.toBe(await hashOf("b", "another-agent"));
  });

  it("names the contents of the skills beside the one under test in a shard's plan hash", async () => {
    await writeTree(fx.dir, {
      "v1/limerick/SKILL.md": skillMd("limerick", "Writes limericks.", "Write one."),
      "v2/limerick/SKILL.md": skillMd("limerick", "Writes limericks.", "Write two."),
    });
    const hashOf = async (name: string, overrides: Partial<TriggerOptions>) => {
      const summary = await runTriggers(
        options("one", {
          workspace: join(fx.dir, "content-hash", name),
          shard: { index: 1, count: 2 },
          budget: createBudget(0, 1),
          ...overrides,
        }),
      );
      return (
        (await readJson(join(summary.iterationDir, "triggers", "plan.json"))).shard as { plan_hash: string }
      ).plan_hash;
    };
    const withSkill = (version: string) => ({ withSkills: [join(fx.dir, version, "limerick")] });
    expect(await hashOf("with-1", withSkill("v1"))).not.toBe(await hashOf("with-2", withSkill("v2")));
    const library = (version: string) => ({ installed: [join(fx.dir, version)] });
    expect(await hashOf("lib-1", library("v1"))).not.toBe(await hashOf("lib-2", library("v2")));
  });

  it("retries a 429 at a lower concurrency and records it; the model asked for reaches the agent", async () => {
    const retries: string[] = [];
    const summary = await runTriggers(
      options("limits", {
        model: "claude-sonnet-4-5",
        retry: { ...fastRetry, attempts: 2 },
        reporter: { onRunRetry: (spec, info) => retries.push(`${spec.query} ${info.outcome}`) },
      }),
    );
    expect(retries).toEqual(["e1 busy service rate_limited"]);
    expect(summary.records.find((r) => r.queryIndex === 0)).toMatchObject({ triggered: true, attempts: 2 });
    // e2 fires only for a sonnet model: the run asked for the one given.
    expect(summary.results.results.map((r) => r.triggers)).toEqual([1, 1]);
    const limits = { events: 1, reductions: 1, lowest_concurrency: 1, max_concurrency: 2 };
    expect(summary.rateLimits).toMatchObject(limits);
    expect(await readJson(join(summary.iterationDir, "triggers", "plan.json"))).toMatchObject({
      status: "complete",
      rate_limits: limits,
    });
  }, 60_000);

  it("gives a run that timed out no verdict, and no thief either, though a skill had loaded", async () => {
    const summary = await runTriggers(
      options("timeout", { timeoutSeconds: 3, withSkills: [join(fx.dir, "limerick")] }),
    );
    const [run] = summary.records;
    expect(run).toMatchObject({ outcome: "timeout", triggered: false, stolenBy: [] });
    expect(run?.error).toEqual(expect.any(String));
    const record = TriggerRun.parse(await readJson(join(run!.spec.runDir, "trigger.json")));
    expect(record).toMatchObject({
      skills_loaded: ["limerick"],
      stolen_by: [],
      triggered: false,
      error: run?.error,
    });
    expect(summary.results.results[0]).toMatchObject({ runs: 1, errors: 1, trigger_rate: null, pass: null });
    expect(summary.results.results[0]).not.toHaveProperty("stolen_by");
  }, 60_000);

  it("leaves a run cancelled while it ran out of the scores", async () => {
    const controller = new AbortController();
    const summary = await runTriggers(
      options("cancel", { signal: controller.signal, reporter: { onRunEnd: () => controller.abort() } }),
    );
    expect(summary.cancelled).toBe(true);
    expect(summary.records.map((r) => [r.queryIndex, r.outcome])).toEqual(
      expect.arrayContaining([
        [0, "success"],
        [1, "cancelled"],
      ]),
    );
    expect(summary.results.results.map((r) => [r.runs, r.errors])).toEqual([
      [1, 0],
      [0, 0],
    ]);
  }, 60_000);
});
