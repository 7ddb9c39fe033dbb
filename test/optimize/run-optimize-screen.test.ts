import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OptimizeResults } from "../../src/contracts/optimize-results.js";
import { type OptimizeOptions, runOptimize } from "../../src/optimize/index.js";
import { ORIGINAL, scribeOptions, useScribe } from "./scribe-fixture.js";
import { scriptedImprover, wordAgent } from "./word-agent.js";

// runOptimize in this process with the original description alone: how replay's screen of the train runs is
// recorded, and how an evaluation cut short ends the loop. The agent loads a skill whose description shares a word
// with the query; it sends no model request, so replay has nothing to capture.
const NO_CAPTURE = "claude-code does not say where it sends model requests";

const { dir } = useScribe();

// The screen left to its default, as the command line leaves it.
function options(overrides: Partial<OptimizeOptions> = {}): OptimizeOptions {
  const { screen: _default, ...rest } = scribeOptions(dir(), {
    maxIterations: 0,
    createAgent: async () => wordAgent({ name: "claude-code" }).agent,
    createImprover: async () => scriptedImprover([]).judge,
  });
  return { ...rest, ...overrides };
}

const replayAsked = { mode: "replay", screen: { kind: "replay" } } as const;

describe("runOptimize with replay screening the train runs", () => {
  it("records how the train runs were decided, and why replay stood aside", async () => {
    const result = await runOptimize(options({ screen: replayAsked }));
    expect(result.results.screen).toEqual({ kind: "replay", asked: true });
    expect(result.results.iterations[0]!.replay).toEqual({
      train_runs: 5,
      decided_by_replay: 0,
      captured: false,
      off: NO_CAPTURE,
    });
  });

  it("goes first on each test query's first run too with three runs or more", async () => {
    const agent = wordAgent({ name: "claude-code" });
    const result = await runOptimize(
      options({ runs: 4, screen: replayAsked, createAgent: async () => agent.agent }),
    );
    // No description loads the skill: three runs settle each query, 15 of the 5 train queries, 12 of the 4 test ones.
    expect(agent.requests).toHaveLength(27);
    expect(result.results.iterations[0]!.replay).toEqual({
      train_runs: 15,
      decided_by_replay: 0,
      test_first_runs: 4,
      test_decided_by_replay: 0,
      captured: false,
      off: NO_CAPTURE,
    });
  });

  it("refuses replay asked for an agent without it, before any run", async () => {
    const agent = wordAgent();
    await expect(
      runOptimize(options({ screen: replayAsked, createAgent: async () => agent.agent })),
    ).rejects.toMatchObject({ code: "USAGE", message: "--screen replay is not available with word yet" });
    expect(await readdir(dir())).not.toContain("ws");
    expect(agent.requests).toHaveLength(0);
  });

  it("turns the default screen off for an agent without replay, saying why", async () => {
    const result = await runOptimize(options({ createAgent: async () => wordAgent().agent }));
    expect(result.results.screen).toEqual({ kind: "none", asked: false, off: "word has no replay yet" });
    expect(result.results.iterations[0]).not.toHaveProperty("replay");
  });
});

describe("runOptimize when an evaluation is cut short", () => {
  it("records the evaluation as interrupted and stops as cancelled when the signal aborts during its runs", async () => {
    const controller = new AbortController();
    const agent = wordAgent({ simulated: false, costUsd: 0.01 });
    const run = agent.agent.run.bind(agent.agent);
    const result = await runOptimize(
      options({
        screen: { mode: "none" },
        concurrency: 1,
        maxCostUsd: 10,
        signal: controller.signal,
        createImprover: async () => scriptedImprover([], { simulated: false }).judge,
        // The second run is cut short by the abort, as an agent's process is killed.
        createAgent: async () => ({
          ...agent.agent,
          run: async (request) => {
            if (agent.requests.length === 1) controller.abort();
            const made = await run(request);
            return request.signal?.aborted ? { ...made, outcome: "cancelled" as const } : made;
          },
        }),
      }),
    );
    expect(result.results).toMatchObject({ status: "interrupted", exit_reason: "cancelled" });
    expect(agent.requests).toHaveLength(2);
    expect(result.results.iterations).toEqual([
      {
        iteration: 0,
        description: ORIGINAL,
        status: "interrupted",
        train: null,
        test: null,
        trigger_runs: 1,
        cost_usd: 0.01,
      },
    ]);
  });

  it("records a thrown value that is not an Error by its text", async () => {
    let folder = "";
    const thrown = { toString: () => "the improver's socket closed" };
    await expect(
      runOptimize(
        options({
          screen: { mode: "none" },
          maxIterations: 1,
          createImprover: async () => ({
            ...scriptedImprover([]).judge,
            complete: () => Promise.reject(thrown),
          }),
          reporter: {
            onPlan: (info) => {
              folder = info.dir;
            },
          },
        }),
      ),
    ).rejects.toBe(thrown);
    const results = OptimizeResults.parse(JSON.parse(await readFile(join(folder, "results.json"), "utf8")));
    expect(results).toMatchObject({ exit_reason: "error", error: "the improver's socket closed" });
  });
});
