import { readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { SkillgymError } from "../../src/errors.js";
import { createBudget } from "../../src/run/budget.js";
import { runTriggers, type TriggerOptions, type TriggerRunSpec } from "../../src/triggers/index.js";
import { triggerRunIdentity } from "../../src/triggers/run-triggers.js";
import { forecastTriggerRuns } from "../../src/triggers/store-forecast.js";
import { useSimDouble } from "../agent-double/use-sim-double.js";
import { fastRetry, readJson, skillMd, writeTree } from "../e2e/helpers.js";
import { conditionsTree, type Listing, listing, priorConversation } from "./conditions-fixture.js";

// --conditions clean,real, --conditions clean, --context and the suite's "conditions", with runTriggers in this process
// and the claude-code adapter on the test double. "What changed" goes to changelog once the library is installed;
// "prepare the release" fires only where the working folder holds a package.json; "draft the notes" stops firing
// after the prior conversation, which says the notes are written.
const script = SimScript.parse({
  rules: [
    { match: "what changed", skills: "^changelog$", skill: "changelog", steps: [{ text: "Changelog." }] },
    { match: "what changed", skill: "~release-notes-sg-", steps: [{ text: "Notes." }] },
    { match: "prepare the release", files: "^package\\.json$", skill: "~release-notes-sg-" },
    { match: "prepare the release", skill: "none", without_skill: [{ text: "Which release?" }] },
    { match: "draft the notes", history: "notes are already written", skill: "none" },
    { match: "draft the notes", skill: "~release-notes-sg-" },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
});

const QUERIES = [
  { query: "Tell me what changed since v1.2", should_trigger: true },
  { query: "Please prepare the release", should_trigger: true },
  { query: "Draft the notes for v1.3", should_trigger: true },
  { query: "Explain what a monad is", should_trigger: false },
];

let untouched: Listing;
const fx = useSimDouble(script, async (dir) => {
  await writeTree(dir, {
    ...conditionsTree(),
    "release-notes/evals/triggers.json": JSON.stringify(QUERIES),
    "context.json": JSON.stringify(priorConversation),
    "poet/SKILL.md": skillMd("poet", "Writes poems.", "Write one."),
  });
  untouched = await listing(project());
});
const double = () => fx.agent();
const project = () => join(fx.dir, "project");
const library = () => join(fx.dir, "library");
const contextFile = () => join(fx.dir, "context.json");

function options(workspace: string, overrides: Partial<TriggerOptions> = {}): TriggerOptions {
  return {
    skillPath: join(fx.dir, "release-notes"),
    workspace: join(fx.dir, workspace),
    runs: 1,
    threshold: 0.5,
    concurrency: 2,
    timeoutSeconds: 60,
    retry: { ...fastRetry, attempts: 1 },
    createAgent: () => double(),
    ...overrides,
  };
}

const triggersOf = (results: { triggers: number }[]) => results.map((r) => r.triggers);
const HEX = /^[0-9a-f]{64}$/;

describe("--conditions clean,real in one iteration", () => {
  it("runs the clean room first in triggers/clean/, flags what differs, and the store serves both sets", async () => {
    const given = {
      conditions: { clean: true, real: true },
      installed: [library()],
      project: project(),
      context: contextFile(),
      store: {},
    };
    const plans: unknown[] = [];
    const summary = await runTriggers(
      options("ws-both", { ...given, reporter: { onPlan: (info) => plans.push(info) } }),
    );
    const triggersDir = join(fx.dir, "ws-both", "iteration-1", "triggers");
    const cleanDir = join(triggersDir, "clean");
    expect(summary.cancelled).toBe(false);
    expect(plans).toEqual([
      { triggersDir: cleanDir, total: 4, resumed: false, simulated: true, condition: "clean" },
      { triggersDir, total: 4, resumed: false, simulated: true, condition: "real" },
    ]);
    // Each set's runs in its own folder: the clean room's first.
    expect(summary.records.map((r) => r.spec.runDir)).toEqual(
      expect.arrayContaining([
        join(cleanDir, "query-1", "run-1"),
        join(cleanDir, "query-4", "run-1"),
        join(triggersDir, "query-1", "run-1"),
        join(triggersDir, "query-4", "run-1"),
      ]),
    );
    expect(summary.records).toHaveLength(8);
    expect(summary.records.slice(0, 4).every((r) => r.spec.runDir.startsWith(cleanDir))).toBe(true);

    const { results } = summary;
    expect(triggersOf(results.results)).toEqual([0, 1, 0, 0]);
    expect(results.results.map((r) => r.side_by_side)).toEqual([
      {
        clean: { trigger_rate: 1, triggers: 1, runs: 1, errors: 0, pass: true },
        real: { trigger_rate: 0, triggers: 0, runs: 1, errors: 0, pass: false, stolen_by: { changelog: 1 } },
        difference: -1,
        flag: "clean-only",
      },
      {
        clean: { trigger_rate: 0, triggers: 0, runs: 1, errors: 0, pass: false },
        real: { trigger_rate: 1, triggers: 1, runs: 1, errors: 0, pass: true },
        difference: 1,
        flag: "real-only",
      },
      {
        clean: { trigger_rate: 1, triggers: 1, runs: 1, errors: 0, pass: true },
        real: { trigger_rate: 0, triggers: 0, runs: 1, errors: 0, pass: false },
        difference: -1,
        flag: "clean-only",
      },
      {
        clean: { trigger_rate: 0, triggers: 0, runs: 1, errors: 0, pass: true },
        real: { trigger_rate: 0, triggers: 0, runs: 1, errors: 0, pass: true },
        difference: 0,
      },
    ]);
    expect(results.side_by_side).toMatchObject({
      conditions: ["clean", "real"],
      clean_only: 2,
      real_only: 1,
    });
    expect(results.side_by_side?.clean_summary).toMatchObject({ total: 4, passed: 3, failed: 1 });
    expect(results.summary).toMatchObject({ total: 4, passed: 2, failed: 2 });
    expect(results.conditions).toEqual({
      project_root: project(),
      project_hash: expect.stringMatching(HEX),
      installed: ["changelog", "formatter"],
      context: contextFile(),
      context_hash: expect.stringMatching(HEX),
      context_turns: 2,
    });
    expect(await readJson(summary.resultsFile)).toEqual(JSON.parse(JSON.stringify(results)));

    // The clean room's own results: its rates, and no condition (as before there were conditions).
    const clean = await readJson(join(cleanDir, "trigger-results.json"));
    expect(triggersOf(clean.results as { triggers: number }[])).toEqual([1, 0, 1, 0]);
    expect(clean.summary).toEqual(results.side_by_side?.clean_summary);
    expect(clean.conditions).toBeUndefined();
    expect(clean.side_by_side).toBeUndefined();
    expect(clean).toMatchObject({ skill_name: "release-notes", runs_per_query: 1, simulated: true });

    const plan = await readJson(join(triggersDir, "plan.json"));
    expect(plan).toMatchObject({
      side_by_side: ["clean", "real"],
      installed: [library()],
      project_root: project(),
      project_hash: results.conditions?.project_hash,
      context: contextFile(),
      context_hash: results.conditions?.context_hash,
      status: "complete",
    });
    expect(plan.conditions).toBeUndefined();

    // The history went in as a session the agent resumed, never into the prompt.
    const transcript = await readFile(join(triggersDir, "query-3", "run-1", "transcript.jsonl"), "utf8");
    expect(transcript).not.toContain("already written");
    expect(await listing(project())).toEqual(untouched);

    // The store holds both sets, each under its own key: a changed conversation serves only the clean room.
    expect(await forecastTriggerRuns(options("ws-both", given))).toMatchObject({
      runs: 8,
      served: 8,
      toRun: 0,
    });
    await writeTree(fx.dir, {
      "context-2.json": JSON.stringify([
        { role: "user", content: "Can you look at the parser tests?" },
        { role: "assistant", content: "Yes, they pass." },
      ]),
    });
    const otherContext = { ...given, context: join(fx.dir, "context-2.json") };
    expect(await forecastTriggerRuns(options("ws-both", otherContext))).toMatchObject({
      runs: 8,
      served: 4,
      toRun: 4,
    });
    // The clean room alone: its four runs, all stored; the real set alone, all stored too.
    // The clean room's forecast never reads the conversation: a missing file does not matter there.
    const cleanOnly = {
      ...given,
      context: join(fx.dir, "missing-context.json"),
      conditions: { clean: true, real: false },
    };
    expect(await forecastTriggerRuns(options("ws-both", cleanOnly))).toMatchObject({
      runs: 4,
      served: 4,
      toRun: 0,
    });
    const realOnly = { ...otherContext, context: contextFile(), conditions: { clean: false, real: true } };
    expect(await forecastTriggerRuns(options("ws-both", realOnly))).toMatchObject({
      runs: 4,
      served: 4,
      toRun: 0,
    });
  }, 90_000);

  it("stops before the real set when the clean room was cancelled, and writes no results", async () => {
    const stop = new AbortController();
    stop.abort();
    const plans: unknown[] = [];
    const summary = await runTriggers(
      options("ws-stopped", {
        conditions: { clean: true, real: true },
        installed: [library()],
        signal: stop.signal,
        reporter: { onPlan: (info) => plans.push(info) },
      }),
    );
    expect(summary.cancelled).toBe(true);
    // Only the clean room's set was planned: the real set never began.
    expect(plans).toHaveLength(1);
    const triggersDir = join(summary.iterationDir, "triggers");
    // No run started, in either set, and no results were written.
    expect(summary.records).toEqual([]);
    expect(await readdir(triggersDir)).toEqual(["plan.json"]);
    expect(await readJson(join(triggersDir, "plan.json"))).toMatchObject({ status: "interrupted" });
  }, 60_000);
});

describe("--conditions clean alone", () => {
  it("runs in an empty folder with no library and no conversation; only --with-skills stay beside it", async () => {
    const summary = await runTriggers(
      options("ws-clean", {
        conditions: { clean: true, real: false },
        installed: [library()],
        withSkills: [join(fx.dir, "poet")],
        project: project(),
        // Never read: the clean room has no prior conversation.
        context: join(fx.dir, "missing-context.json"),
      }),
    );
    const { results } = summary;
    expect(triggersOf(results.results)).toEqual([1, 0, 1, 0]);
    expect(results.conditions).toEqual({ installed: ["poet"] });
    expect(results.side_by_side).toBeUndefined();
    const triggersDir = join(summary.iterationDir, "triggers");
    expect((await readdir(triggersDir)).sort()).toEqual([
      "plan.json",
      "query-1",
      "query-2",
      "query-3",
      "query-4",
      "trigger-results.json",
    ]);
    const plan = await readJson(join(triggersDir, "plan.json"));
    expect(plan.conditions).toEqual(["clean"]);
    expect(plan.side_by_side).toBeUndefined();
    expect(plan.project_root).toBeUndefined();
    expect(plan.context).toBeUndefined();
  }, 60_000);
});

describe("--context alone", () => {
  it("each run continues the conversation: the query it answered stops firing", async () => {
    const summary = await runTriggers(options("ws-context", { context: contextFile() }));
    expect(triggersOf(summary.results.results)).toEqual([1, 0, 0, 0]);
    expect(summary.results.conditions).toEqual({
      context: contextFile(),
      context_hash: expect.stringMatching(HEX),
      context_turns: 2,
    });
  }, 60_000);
});

describe('the suite\'s "conditions"', () => {
  const suited = () => join(fx.dir, "suited");
  beforeAll(async () => {
    await writeTree(suited(), {
      ...conditionsTree(),
      "release-notes/evals/triggers.json": JSON.stringify(QUERIES.slice(0, 2)),
      "release-notes/evals/evals.json": JSON.stringify({
        conditions: { project_root: "../../project", installed: ["../../library"], side_by_side: true },
        evals: [{ id: 1, prompt: "Tell me what changed", expectations: ["lists the changes"] }],
      }),
    });
  });

  it("names the conditions, side by side; a flag wins over its field", async () => {
    const suiteOptions = (workspace: string, overrides: Partial<TriggerOptions> = {}) =>
      options(workspace, { skillPath: join(suited(), "release-notes"), ...overrides });
    const both = await runTriggers(suiteOptions("ws-suited"));
    expect(both.results.side_by_side).toMatchObject({ clean_only: 1, real_only: 1 });
    expect(both.results.conditions).toEqual({
      project_root: join(suited(), "project"),
      project_hash: expect.stringMatching(HEX),
      installed: ["changelog", "formatter"],
    });
    // --conditions real and --installed given: no clean room, and only the library given.
    const real = await runTriggers(
      suiteOptions("ws-suited-real", {
        conditions: { clean: false, real: true },
        installed: [join(fx.dir, "library")],
        project: project(),
      }),
    );
    expect(real.results.side_by_side).toBeUndefined();
    expect(real.results.conditions).toMatchObject({
      project_root: project(),
      installed: ["changelog", "formatter"],
    });
  }, 90_000);
});

describe("refused before any agent runs", () => {
  it("a split side by side, or --context for an agent that cannot continue a conversation", async () => {
    const failure = (workspace: string, overrides: Partial<TriggerOptions>) =>
      runTriggers(options(workspace, overrides)).then(
        () => expect.unreachable(),
        (e: unknown) => {
          expect(e).toBeInstanceOf(SkillgymError);
          return e as SkillgymError;
        },
      );
    const split = await failure("ws-split", {
      conditions: { clean: true, real: true },
      installed: [library()],
      shard: { index: 1, count: 2 },
    });
    expect(split.code).toBe("USAGE");
    expect(split.message).toBe("--conditions clean,real cannot be split with --shard");
    expect(split.hint).toContain("--conditions clean, --conditions real");
    const refused = await failure("ws-refused", {
      context: contextFile(),
      createAgent: async () => ({ ...(await double()), continuesConversations: false }),
    });
    expect(refused.code).toBe("USAGE");
    expect(refused.message).toContain("--context is not available with claude-code");
    expect(await readdir(join(fx.dir, "ws-split")).catch(() => [])).toEqual([]);
    expect(await readdir(join(fx.dir, "ws-refused")).catch(() => [])).toEqual([]);
  });

  it("a given iteration is a resume only when it holds a plan; no temporary folder is left behind", async () => {
    const given = join(fx.dir, "given-iteration");
    const resumed: boolean[] = [];
    const attempt = () =>
      runTriggers(
        options("ws-given", {
          iterationDir: given,
          budget: createBudget(0, 1),
          reporter: { onPlan: (info) => resumed.push(info.resumed) },
        }),
      );
    const first = await attempt();
    expect(first.iterationDir).toBe(given);
    await attempt();
    expect(resumed).toEqual([false, true]);
    const mine = (await readdir(tmpdir())).filter((n) => n.startsWith(`skillgym-triggers.${process.pid}.`));
    expect(mine).toEqual([]);
  });
});

describe("a trigger run's identity for sharding", () => {
  it("is its query's place and text and its run number", () => {
    expect(
      triggerRunIdentity({ queryIndex: 2, query: "Explain a monad", runNumber: 3 } as TriggerRunSpec),
    ).toBe('["query",2,"Explain a monad",3]');
  });

  it("a shard with no run of its own forecasts nothing, and opens no store", async () => {
    // Four runs over eight shards: at least four shards hold none.
    const forecasts = [];
    for (let index = 1; index <= 8; index++)
      forecasts.push(
        await forecastTriggerRuns(options("ws-shards", { runs: 1, store: {}, shard: { index, count: 8 } })),
      );
    expect(forecasts.reduce((sum, f) => sum + f.runs, 0)).toBe(4);
    const empty = forecasts.filter((f) => f.runs === 0);
    expect(empty.length).toBeGreaterThanOrEqual(4);
    for (const f of empty)
      expect(f).toEqual({
        runs: 0,
        served: 0,
        toRun: 0,
        judgeServed: 0,
        judgeToRun: 0,
        workspace: join(fx.dir, "ws-shards"),
      });
    for (const f of forecasts.filter((f) => f.runs > 0))
      expect(f).toMatchObject({ toRun: f.runs, storeDir: join(fx.dir, "ws-shards", ".skillgym-cache") });
  });
});

describe("a sandboxed run", () => {
  it("keeps the hosts its network filter refused in the run's activation.json", async () => {
    await writeTree(fx.dir, { "one-query.json": JSON.stringify(QUERIES.slice(3)) });
    const summary = await runTriggers(
      options("ws-sandboxed", {
        evalsPath: join(fx.dir, "one-query.json"),
        createAgent: async () => {
          const agent = await double();
          return {
            ...agent,
            sandboxed: true,
            run: async (request) => ({
              ...(await agent.run(request)),
              sandbox: { refusedHosts: ["telemetry.example.com"] },
            }),
          };
        },
      }),
    );
    const [run] = summary.records;
    expect(summary.records).toHaveLength(1);
    const activation = await readJson(join(run!.spec.runDir, "activation.json"));
    expect(activation.sandbox_refused).toEqual({ hosts: ["telemetry.example.com"] });
    expect(summary.results.sandbox).toBe(true);
    // A run that ended well names no error.
    expect(run!.record.outcome).not.toMatch(/error/);
    expect("error" in run!.record).toBe(false);
  }, 60_000);
});
