import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TriggerRun } from "../../src/contracts/run-record.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { runTriggers, type TriggerOptions, type TriggerRunSpec } from "../../src/triggers/index.js";
import { forecastTriggerRuns } from "../../src/triggers/store-forecast.js";
import { useSimDouble } from "../agent-double/use-sim-double.js";
import { fastRetry, readJson, skillMd, writeTree } from "../e2e/helpers.js";

// runTriggers in this process, its agent the claude-code adapter on the test double, against one sim for the file.
// "q1" always loads the skill under test; "q2" goes to limerick when limerick is installed beside it; "q3" loads
// nothing; "q4" fails at the API.
const script = SimScript.parse({
  rules: [
    { match: "^q1 ", skill: "~haiku-sg-", steps: [{ text: "A haiku." }] },
    { match: "^q2 ", skills: "^limerick$", skill: "limerick", steps: [{ text: "A limerick." }] },
    { match: "^q2 ", skill: "none", without_skill: [{ text: "Which rhyme?" }] },
    { match: "^q4 ", fault: { status: 500 } },
    { match: "^q5 ", skill: "auto", steps: [{ text: "A sonnet." }], without_skill: [{ text: "Hm." }] },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
});

const DESCRIPTION = "Writes a haiku poem. Use when the user asks for a haiku.";
const VERSE = "Writes short poems.";
const fx = useSimDouble(script, (dir) =>
  writeTree(dir, {
    "haiku/SKILL.md": skillMd("haiku", DESCRIPTION, "Write a haiku."),
    "haiku/evals/triggers.json": JSON.stringify([
      { query: "q1 write a haiku about rain", should_trigger: true },
      { query: "q2 a funny rhyme about a cat", should_trigger: true },
      { query: "q3 explain what a monad is", should_trigger: false },
    ]),
    "limerick/SKILL.md": skillMd("limerick", "Writes limericks.", "Write one."),
    "verse/SKILL.md": skillMd("verse", VERSE, "Write it."),
    "verse/evals/triggers.json": JSON.stringify([
      { query: "q4 anything at all", should_trigger: true },
      { query: "q5 compose a sonnet about the moon", should_trigger: true },
    ]),
  }),
);
// The claude-code adapter on the test double, against this file's sim.
const double = () => fx.agent();

function options(workspace: string, overrides: Partial<TriggerOptions> = {}): TriggerOptions {
  return {
    skillPath: join(fx.dir, "haiku"),
    workspace: join(fx.dir, workspace),
    runs: 2,
    threshold: 0.5,
    concurrency: 3,
    timeoutSeconds: 60,
    retry: { ...fastRetry, attempts: 1 },
    createAgent: () => double(),
    ...overrides,
  };
}

const runName = (s: Pick<TriggerRunSpec, "queryIndex" | "runNumber">) =>
  `q${s.queryIndex + 1}-r${s.runNumber}`;

describe("runTriggers", () => {
  it("scores each query's rate and verdict, names the skill that took it, and stops a settled query", async () => {
    const seen: string[] = [];
    const plans: unknown[] = [];
    const summary = await runTriggers(
      options("ws-basic", {
        // One at a time: q1's first run has ended before its second could be taken, whatever the load.
        concurrency: 1,
        withSkills: [join(fx.dir, "limerick")],
        // The double has no version of its own: this one names it and its mode, as a real agent would.
        createAgent: async () => ({
          ...(await double()),
          version: "9.9.9",
          mode: "default",
        }),
        reporter: {
          onPlan: (info) => plans.push(info),
          onRunStart: (spec) => seen.push(`start ${runName(spec)}`),
          onRunDropped: (spec) => seen.push(`dropped ${runName(spec)}`),
          onRunEnd: (record) => seen.push(`end ${runName(record.spec)}`),
        },
      }),
    );
    const triggersDir = join(fx.dir, "ws-basic", "iteration-1", "triggers");
    expect(summary.iterationDir).toBe(join(fx.dir, "ws-basic", "iteration-1"));
    expect(summary.resultsFile).toBe(join(triggersDir, "trigger-results.json"));
    expect(summary.cancelled).toBe(false);
    expect(summary.simulated).toBe(true);
    expect(plans).toEqual([{ triggersDir, total: 6, resumed: false, simulated: true }]);
    // q1 triggered on its first run: its second could not change the verdict and never started.
    expect(seen.filter((s) => s.startsWith("dropped"))).toEqual(["dropped q1-r2"]);
    expect(seen.filter((s) => s.startsWith("start")).sort()).toEqual(
      ["start q1-r1", "start q2-r1", "start q2-r2", "start q3-r1", "start q3-r2"].sort(),
    );
    expect(seen.filter((s) => s.startsWith("end"))).toHaveLength(5);

    const { results } = summary;
    expect(results.results).toEqual([
      {
        query: "q1 write a haiku about rain",
        should_trigger: true,
        trigger_rate: 1,
        triggers: 1,
        runs: 1,
        errors: 0,
        pass: true,
      },
      {
        query: "q2 a funny rhyme about a cat",
        should_trigger: true,
        trigger_rate: 0,
        triggers: 0,
        runs: 2,
        errors: 0,
        pass: false,
        stolen_by: { limerick: 2 },
      },
      {
        query: "q3 explain what a monad is",
        should_trigger: false,
        trigger_rate: 0,
        triggers: 0,
        runs: 2,
        errors: 0,
        pass: true,
      },
    ]);
    expect(results).toMatchObject({
      skill_name: "haiku",
      description: DESCRIPTION,
      summary: { total: 3, passed: 2, failed: 1, errors: 0, precision: 1 },
      threshold: 0.5,
      runs_per_query: 2,
      all_runs: false,
      simulated: true,
      sandbox: false,
      conditions: { installed: ["limerick"] },
      agent: { name: "claude-code", version: "9.9.9", mode: "default" },
    });
    expect(results.model).toBeUndefined();
    expect(results.summary.recall).toBeCloseTo(1 / 3, 10);
    expect(await readJson(summary.resultsFile)).toEqual(JSON.parse(JSON.stringify(results)));

    const plan = await readJson(join(triggersDir, "plan.json"));
    expect(plan).toMatchObject({
      skill_name: "haiku",
      skill_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      description: DESCRIPTION,
      queries: results.results.map((r) => r.query),
      runs_per_query: 2,
      with_skills: [join(fx.dir, "limerick")],
      all_runs: false,
      status: "complete",
    });
    expect(plan.installed).toBeUndefined();
    expect(plan.shard).toBeUndefined();

    // Each run's record on disk: what loaded, who took it, what it cost.
    const byName = new Map(summary.records.map((r) => [runName(r.spec), r]));
    expect([...byName.keys()].sort()).toEqual(["q1-r1", "q2-r1", "q2-r2", "q3-r1", "q3-r2"]);
    const q1 = byName.get("q1-r1")!;
    expect(q1).toMatchObject({ triggered: true, stolenBy: [], skipped: false, attempts: 1 });
    expect(q1.outcome).toBe("stopped");
    const q1Record = TriggerRun.parse(await readJson(join(q1.spec.runDir, "trigger.json")));
    expect(q1Record).toMatchObject({
      query: "q1 write a haiku about rain",
      should_trigger: true,
      synthetic_name: q1.spec.syntheticName,
      triggered: true,
      skills_loaded: ["haiku"],
      stolen_by: [],
      attempts: 1,
      cost_usd: 0,
      simulated: true,
    });
    expect(q1Record.error).toBeUndefined();
    expect(q1Record.contaminated).toBeUndefined();
    expect(q1Record.model_requests).toBeGreaterThanOrEqual(1);
    expect(q1.spec.syntheticName).toMatch(/^haiku-sg-[0-9a-f]{8}$/);
    const activation = await readJson(join(q1.spec.runDir, "activation.json"));
    expect(activation).toMatchObject({
      skill: "haiku",
      configuration: "trigger",
      agent: "claude-code",
      skill_fired: true,
      unexpected_skills: [],
      contaminated: false,
    });

    const q2 = byName.get("q2-r1")!;
    expect(q2).toMatchObject({ triggered: false, stolenBy: ["limerick"], outcome: "success" });
    const q2Record = TriggerRun.parse(await readJson(join(q2.spec.runDir, "trigger.json")));
    expect(q2Record).toMatchObject({
      skills_loaded: ["limerick"],
      stolen_by: ["limerick"],
      triggered: false,
    });
    expect(q2Record.model_requests).toBeGreaterThanOrEqual(2);
    const q3 = TriggerRun.parse(await readJson(join(byName.get("q3-r1")!.spec.runDir, "trigger.json")));
    expect(q3).toMatchObject({ skills_loaded: [], stolen_by: [], triggered: false, outcome: "success" });
    expect(q3.model_requests).toBe(1);
    // The run's prompt is the query, and its workspace held the skill under its synthetic name and limerick.
    const transcript = await readFile(join(q2.spec.runDir, "transcript.jsonl"), "utf8");
    expect(transcript).toContain("A limerick.");
    // Token counts were streamed (what prices a run stopped at the first skill load), and the events kept.
    expect(transcript).toContain('"type":"stream_event"');
    const events = await readFile(join(q2.spec.runDir, "events.jsonl"), "utf8");
    expect(events).toContain('"kind":"tool_use"');
    const markdown = await readFile(join(q2.spec.runDir, "transcript.md"), "utf8");
    expect(markdown.split("\n")[0]).toBe(
      `# Trigger query 2, run 1 (skill installed as ${q2.spec.syntheticName})`,
    );
    expect(markdown).toContain("q2 a funny rhyme about a cat");
  }, 60_000);

  it("with --all-runs, a description of its own and a model: every run made, the copy tested, an error no verdict", async () => {
    const sonnet = "Composes a sonnet about the moon.";
    const retried: string[] = [];
    const summary = await runTriggers(
      options("ws-all", {
        skillPath: join(fx.dir, "verse"),
        allRuns: true,
        description: sonnet,
        model: "claude-sonnet-4-5",
        concurrency: 4,
        store: {},
        // q4 fails at the API every time: each run tries twice.
        retry: { ...fastRetry, attempts: 2 },
        reporter: { onRunRetry: (spec, info) => retried.push(`${runName(spec)} ${JSON.stringify(info)}`) },
      }),
    );
    const { results } = summary;
    expect(results.results).toEqual([
      {
        query: "q4 anything at all",
        should_trigger: true,
        trigger_rate: null,
        triggers: 0,
        runs: 2,
        errors: 2,
        pass: null,
      },
      {
        query: "q5 compose a sonnet about the moon",
        should_trigger: true,
        trigger_rate: 1,
        triggers: 2,
        runs: 2,
        errors: 0,
        pass: true,
      },
    ]);
    expect(results).toMatchObject({
      description: sonnet,
      all_runs: true,
      model: "claude-sonnet-4-5",
      summary: { total: 2, passed: 1, failed: 0, errors: 1 },
    });
    expect(results.conditions).toBeUndefined();
    expect(results.agent).toEqual({ name: "claude-code" });
    const plan = await readJson(join(summary.iterationDir, "triggers", "plan.json"));
    expect(plan).toMatchObject({ description: sonnet, all_runs: true, with_skills: [], status: "complete" });
    // The user's skill keeps its description.
    expect(await readFile(join(fx.dir, "verse", "SKILL.md"), "utf8")).toBe(
      skillMd("verse", VERSE, "Write it."),
    );

    const retry = JSON.stringify({ attempt: 1, outcome: "server_error", delayMs: fastRetry.baseDelayMs });
    expect(retried.sort()).toEqual([`q1-r1 ${retry}`, `q1-r2 ${retry}`]);
    const failed = summary.records.filter((r) => r.queryIndex === 0);
    expect(failed).toHaveLength(2);
    for (const run of failed) {
      expect(run).toMatchObject({ triggered: false, stolenBy: [], outcome: "server_error", attempts: 2 });
      expect(run.error).toContain("500");
      const record = TriggerRun.parse(await readJson(join(run.spec.runDir, "trigger.json")));
      expect(record).toMatchObject({ outcome: "server_error", triggered: false, error: run.error });
    }
    // The run installed a copy carrying the new description, without the suite.
    const loaded = summary.records.find((r) => r.queryIndex === 1)!;
    const activation = await readJson(join(loaded.spec.runDir, "activation.json"));
    expect(activation).toMatchObject({ skill: "verse", skill_fired: true });
    // The store keeps the scored runs only: a failed run is made again next time.
    const forecast = await forecastTriggerRuns(
      options("ws-all", {
        skillPath: join(fx.dir, "verse"),
        allRuns: true,
        description: sonnet,
        model: "claude-sonnet-4-5",
        store: {},
      }),
    );
    expect(forecast).toMatchObject({ runs: 4, served: 2, toRun: 2 });
  }, 60_000);
});
