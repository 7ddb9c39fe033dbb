import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent } from "../../src/agents/index.js";
import { TriggerRun } from "../../src/contracts/run-record.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { judgeGrader } from "../../src/grade/index.js";
import { createJudge } from "../../src/judge/index.js";
import { type PipelineOptions, runPipeline } from "../../src/pipeline/index.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { agentDouble } from "../agent-double/index.js";
import { fastRetry, readJson, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;

const DESCRIPTION = "Writes a haiku poem. Use when the user asks for a haiku.";

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd("haiku", DESCRIPTION, "Write a haiku into poem.txt."),
    "haiku/evals/evals.json": JSON.stringify({
      evals: [
        {
          id: 1,
          prompt: "write a haiku about rain into poem.txt",
          expectations: ["poem.txt holds a haiku"],
          checks: [{ type: "file_exists", path: "poem.txt" }],
        },
      ],
    }),
    "haiku/evals/triggers.json": JSON.stringify([
      { query: "a haiku about the sea please", should_trigger: true },
      { query: "fix my failing build", should_trigger: false },
    ]),
  });
  sim = await startSim({
    script: SimScript.parse({
      rules: [
        {
          match: "haiku about rain",
          skill: "haiku",
          steps: [{ write: { path: "poem.txt", content: "rain\n" } }],
        },
        { match: "about the sea", skill: "~haiku-sg-" },
      ],
    }),
  });
});
afterEach(async () => {
  await sim.close();
  await cleanup();
});

function options(overrides: Partial<PipelineOptions> = {}): PipelineOptions {
  return {
    skillPath: join(dir, "haiku"),
    workspace: join(dir, "ws"),
    runs: 1,
    baseline: "without_skill",
    concurrency: 4,
    timeoutSeconds: 60,
    triggerRuns: 1,
    threshold: 0.5,
    triggerTimeoutSeconds: 60,
    retry: fastRetry,
    grade: true,
    gates: {},
    store: { judge: "sim" },
    createAgent: () => createAgent("claude-code", { binary: agentDouble, simulatorUrl: sim.url }),
    createGrader: async () => judgeGrader(await createJudge({ backend: "sim", simulatorUrl: sim.url })),
    ...overrides,
  };
}

// Runs the pipeline once and says which model requests it sent (judge requests included).
async function iteration(overrides: Partial<PipelineOptions> = {}) {
  const before = sim.log.length;
  const result = await runPipeline(options(overrides));
  return { result, requests: sim.log.slice(before) };
}

const reusedEval = (result: Awaited<ReturnType<typeof runPipeline>>, configuration: string) =>
  result.evals?.records.find((r) => r.spec.configuration === configuration)?.reusedFrom;

describe("the result store against the Claude Code test double and the sim", () => {
  it("serves an unchanged skill's second iteration without a single model request, marked and free", async () => {
    const first = await iteration();
    expect(first.requests.length).toBeGreaterThan(0);
    expect(first.result.savings.reused).toBe(0);

    const second = await iteration();
    expect(second.requests).toEqual([]);
    expect(second.result.savings).toMatchObject({ reused: 4, ran: 0 });
    expect(second.result.costUsd).toBe(0);
    expect(reusedEval(second.result, "without_skill")).toMatchObject({
      iteration: "iteration-1",
      run: "eval-1/without_skill/run-1",
    });
    // The iteration is complete on disk: every reader sees the same files as in a run made now.
    const run = join(second.result.iterationDir, "eval-1", "with_skill", "run-1");
    expect((await readdir(run)).sort()).toEqual(
      [
        "activation.json",
        "events.jsonl",
        "grading.json",
        "outputs",
        "timing.json",
        "transcript.jsonl",
        "transcript.md",
      ].sort(),
    );
    expect(await readFile(join(run, "outputs", "poem.txt"), "utf8")).toBe("rain\n");
    expect(await readJson(join(run, "timing.json"))).toMatchObject({
      cost_usd: 0,
      reused_from: { iteration: "iteration-1", run: "eval-1/with_skill/run-1" },
    });
    const trigger = TriggerRun.parse(
      await readJson(join(second.result.iterationDir, "triggers", "query-1", "run-1", "trigger.json")),
    );
    expect(trigger).toMatchObject({ triggered: true, reused_from: { run: "triggers/query-1/run-1" } });
    expect(second.result.triggers?.results.summary).toEqual(first.result.triggers?.results.summary);
    expect(second.result.benchmark?.run_summary).toEqual(first.result.benchmark?.run_summary);
  }, 240_000);

  it("re-runs with_skill when only the body changed; the baseline and the triggers are reused", async () => {
    await iteration();
    await writeFile(join(dir, "haiku", "SKILL.md"), skillMd("haiku", DESCRIPTION, "Write a short haiku."));
    const second = await iteration();
    expect(reusedEval(second.result, "with_skill")).toBeUndefined();
    expect(reusedEval(second.result, "without_skill")).toBeDefined();
    expect(second.result.triggers?.records.every((r) => r.reusedFrom !== undefined)).toBe(true);
    // Every request came from the with_skill run (its skill listed) or grading it.
    const agentRequests = second.requests.filter(
      (e) => e.action !== "side-request" && !e.action.startsWith("judge"),
    );
    expect(agentRequests.length).toBeGreaterThan(0);
    expect(agentRequests.every((e) => e.listed?.includes("haiku"))).toBe(true);
  }, 240_000);

  it("re-runs the triggers when the description changed, and nothing is reused with another model", async () => {
    await iteration();
    const described = await iteration({
      description: "Writes haiku poems. Use when the user wants a haiku.",
    });
    expect(described.result.triggers?.records.some((r) => r.reusedFrom !== undefined)).toBe(false);
    expect(reusedEval(described.result, "with_skill")).toBeDefined();

    const other = await iteration({ model: "claude-haiku-4-5" });
    expect(other.result.savings.reused).toBe(0);
    expect(other.requests.length).toBeGreaterThan(0);
  }, 240_000);

  it("re-runs a damaged entry and --fresh reads nothing", async () => {
    await iteration();
    // Truncate one stored trigger record: the entry no longer checks out.
    const store = join(dir, "ws", ".skillgym-cache", "v1", "trigger-run");
    const files = (await readdir(store, { recursive: true })).filter((f) => f.endsWith("trigger.json"));
    expect(files).toHaveLength(2);
    const damaged = join(store, files[0]!);
    await writeFile(damaged, (await readFile(damaged, "utf8")).slice(0, 20));
    const second = await iteration();
    expect(second.result.triggers?.records.filter((r) => r.reusedFrom !== undefined)).toHaveLength(1);
    expect(second.result.savings.reused).toBe(3);

    // The re-run replaced the damaged entry: a third iteration is served whole.
    const third = await iteration();
    expect(third.result.savings.reused).toBe(4);
    const fresh = await iteration({ store: { judge: "sim", fresh: true } });
    expect(fresh.result.savings.reused).toBe(0);
    expect(fresh.requests.length).toBeGreaterThan(0);
  }, 300_000);
});
