import { access } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import { runPipeline } from "../../src/pipeline/index.js";
import type { PipelineOptions } from "../../src/pipeline/options.js";
import { createBudget } from "../../src/run/budget.js";
import { loadInputs } from "../../src/run/load-inputs.js";
import { readJson, skillMd, writeTree } from "../e2e/helpers.js";
import { cardPipelineOptions, useCardBench } from "./pipeline-fixtures.js";

// What runPipeline checks of the trigger stage before the evals start an agent, and when it runs that stage at all.
const bench = useCardBench();

/** `runPipeline` on eval 2 once without a baseline, telling how often it asked for an agent. */
async function pipeline(workspace: string, overrides: Partial<PipelineOptions> = {}) {
  let agents = 0;
  const options = cardPipelineOptions(bench.dir, () => bench.simulated(), {
    workspace: join(bench.dir, workspace),
    only: ["2"],
    baseline: "none",
    createAgent: () => {
      agents++;
      return bench.simulated();
    },
    ...overrides,
  });
  const run = runPipeline(options);
  return { run, agents: () => agents };
}

const cancelled = () => {
  const controller = new AbortController();
  controller.abort();
  return controller.signal;
};

// The simulator's agent under a name no replay adapter knows.
const noReplay = () => bench.simulated().then((agent) => ({ ...agent, name: "no-replay" }));

// The simulator reached as a real model's endpoint: its runs are priced.
const priced = () =>
  createClaudeCodeAgent({
    binary: bench.binary,
    env: { ...process.env, ANTHROPIC_BASE_URL: bench.sim.url, ANTHROPIC_API_KEY: "sk-test" },
  });

const missing = () => [join(bench.dir, "no-such-folder")];

describe("runPipeline's checks before the evals", () => {
  it("stops at an --installed folder that is not there before any agent starts", async () => {
    const { run, agents } = await pipeline("installed", { installed: missing() });
    await expect(run).rejects.toThrow(/no-such-folder/);
    expect(agents()).toBe(0);
    await expect(access(join(bench.dir, "installed"))).rejects.toThrow();
  });

  it("does not look at --installed when it runs no trigger stage", async () => {
    const { run } = await pipeline("installed-evals", { stage: "evals", installed: missing() });
    expect((await run).evals?.records).toHaveLength(1);
  }, 60_000);

  it("refuses --screen replay with an agent that has no replay before the evals start it", async () => {
    const { run } = await pipeline("screen", { screen: { kind: "replay" }, createAgent: noReplay });
    await expect(run).rejects.toThrow("--screen replay is not available with no-replay");
    await expect(access(join(bench.dir, "screen", "iteration-1"))).rejects.toThrow();
    // Without --screen, that agent is fine.
    const { run: plain } = await pipeline("screen", { createAgent: noReplay, signal: cancelled() });
    expect((await plain).cancelled).toBe(true);
  }, 60_000);

  it("runs no trigger stage from a trigger file with no query, and finishes the iteration with the evals", async () => {
    const loaded = await loadInputs({ skillPath: join(bench.dir, "card"), need: "any" });
    const inputs = { ...loaded, suite: { ...loaded.suite, triggers: [] } };
    const { run } = await pipeline("no-queries", { inputs, installed: missing() });
    const result = await run;
    expect(result.triggers).toBeUndefined();
    expect(result.evals?.records).toHaveLength(1);
    expect((await readJson(join(result.iterationDir, "iteration.json"))).status).toBe("complete");
  }, 60_000);

  it("runs no trigger stage without a trigger file, and finishes the iteration with the evals", async () => {
    const loaded = await loadInputs({ skillPath: join(bench.dir, "card"), need: "any" });
    const { triggersFile: _file, ...suite } = loaded.suite;
    const { run } = await pipeline("no-trigger-file", { inputs: { ...loaded, suite } });
    const result = await run;
    expect(result.triggers).toBeUndefined();
    expect((await readJson(join(result.iterationDir, "iteration.json"))).status).toBe("complete");
  }, 60_000);

  it("leaves the iteration unfinished when the spending limit holds back the trigger runs after the evals", async () => {
    // Nothing is expected to cost anything, so the eval run starts; what it spent then holds back every trigger run.
    const budget = createBudget(1e-9, 0);
    const { run } = await pipeline("held-back", { grade: false, budget, createAgent: priced });
    const result = await run;
    expect(result.evals?.records.map((r) => r.outcome)).toEqual(["success"]);
    expect(result.budgetExhausted).toBe(true);
    expect(result.triggers?.records ?? []).toEqual([]);
    expect((await readJson(join(result.iterationDir, "iteration.json"))).status).toBe("interrupted");
  }, 60_000);

  it("ends a run cancelled before its first run as cancelled, with no report and nothing simulated", async () => {
    const { run, agents } = await pipeline("nothing", { stage: "triggers", signal: cancelled() });
    const result = await run;
    expect(agents()).toBe(0);
    expect(result.cancelled).toBe(true);
    expect(result.triggers).toBeUndefined();
    expect(result.reportFile).toBeUndefined();
    expect(result.simulated).toBe(false);
    expect(result.agent).toBeUndefined();
  }, 60_000);
});

describe("runPipeline's options over the suite's own conditions", () => {
  const query = JSON.stringify([{ query: "q1 make me a greeting card", should_trigger: true }]);
  const suite = (conditions: unknown) =>
    JSON.stringify({
      skill_name: "card",
      conditions,
      evals: [{ id: 2, prompt: "Make card 2", expectations: [] }],
    });
  const suiteAt = (name: string) => join(bench.dir, "suites", name);
  beforeAll(async () => {
    await writeTree(bench.dir, {
      "suites/installed/evals.json": suite({ installed: ["../../shelf"] }),
      "suites/installed/triggers.json": query,
      "suites/both/evals.json": suite({ side_by_side: true }),
      "suites/both/triggers.json": query,
      "bare/SKILL.md": skillMd(
        "bare",
        "Writes bare cards. Use when the user asks for a bare card.",
        "Write it.",
      ),
      "project/evals/bare/triggers.json": query,
    });
  });

  it("takes --installed from the command line before the suite's installed skills", async () => {
    const { run, agents } = await pipeline("cli-installed", {
      evalsPath: suiteAt("installed"),
      installed: missing(),
      signal: cancelled(),
    });
    await expect(run).rejects.toThrow(/no-such-folder/);
    expect(agents()).toBe(0);
  });

  it("takes --conditions from the command line before the suite's side_by_side", async () => {
    // The suite alone asks for a real condition it does not give; the clean room the command line asks for needs none.
    const { run: fromSuite } = await pipeline("suite-both", {
      evalsPath: suiteAt("both"),
      signal: cancelled(),
    });
    await expect(fromSuite).rejects.toThrow('conditions.side_by_side: "real" needs a condition');
    const { run } = await pipeline("cli-conditions", {
      evalsPath: suiteAt("both"),
      conditions: { clean: true, real: false },
      signal: cancelled(),
    });
    expect((await run).cancelled).toBe(true);
  });

  it("takes --project-root from the command line as the real condition the suite's side_by_side asks for", async () => {
    const { run } = await pipeline("cli-project", {
      evalsPath: suiteAt("both"),
      projectRoot: join(bench.dir, "project"),
      signal: cancelled(),
    });
    expect((await run).cancelled).toBe(true);
  });

  it("reads --context before any agent starts, unless only the clean room runs", async () => {
    const context = join(bench.dir, "no-such-context.json");
    const { run, agents } = await pipeline("context", { context, signal: cancelled() });
    await expect(run).rejects.toThrow(`--context: ${context} cannot be read`);
    expect(agents()).toBe(0);
    const { run: clean } = await pipeline("context-clean", {
      context,
      conditions: { clean: true, real: false },
      signal: cancelled(),
    });
    expect((await clean).cancelled).toBe(true);
  });

  it("finds the suite in the --project-root given", async () => {
    const { run } = await pipeline("project-suite", {
      skillPath: join(bench.dir, "bare"),
      projectRoot: join(bench.dir, "project"),
      only: undefined,
      signal: cancelled(),
    });
    expect((await run).cancelled).toBe(true);
    const { run: alone } = await pipeline("no-project", {
      skillPath: join(bench.dir, "bare"),
      only: undefined,
    });
    await expect(alone).rejects.toThrow('no evals.json or triggers.json found for skill "bare"');
  });
});
