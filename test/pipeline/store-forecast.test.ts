import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planPipeline, runPipeline } from "../../src/pipeline/index.js";
import type { PipelineOptions } from "../../src/pipeline/options.js";
import { planAgentsPipeline } from "../../src/pipeline/plan-agents.js";
import {
  forecastPipeline,
  planEvalsWithStore,
  planTriggersWithStore,
} from "../../src/pipeline/store-plan.js";
import { loadInputs } from "../../src/run/load-inputs.js";
import { cardPipelineOptions, useCardBench } from "./pipeline-fixtures.js";

// What `run --dry-run` (and `eval`/`triggers --dry-run`) finds in the result store, by the keys a real run would
// compute; eval 2 once without a baseline and each trigger query once. One sim for the file, for the runs that fill
// a store.
const bench = useCardBench();

function options(workspace: string, overrides: Partial<PipelineOptions> = {}): PipelineOptions {
  return cardPipelineOptions(bench.dir, () => bench.simulated(), {
    workspace: join(bench.dir, workspace),
    only: ["2"],
    baseline: "none",
    store: {},
    ...overrides,
  });
}

const free = { agentRunUsd: 0, triggerRunUsd: 0, judgeCallUsd: 0 };

async function forecast(given: PipelineOptions, stage?: "evals") {
  const { skill, suite } = await loadInputs({ skillPath: given.skillPath, need: "any" });
  const staged = stage ? { ...suite, triggers: [] } : suite;
  return forecastPipeline(given, { skill, suite: staged }, free);
}

const missing = join(bench.dir, "no-such-folder");

describe("the result store's forecast", () => {
  it("asks the agent for its identity alone, with no judge", async () => {
    const wantsJudge: boolean[] = [];
    const plan = await planPipeline(
      options("identity", {
        createAgent: ({ wantsJudge: judge }) => {
          wantsJudge.push(judge);
          return bench.simulated();
        },
      }),
      true,
    );
    expect(plan.store?.triggerRuns?.runs).toBe(2);
    expect(wantsJudge).toEqual([false]);
  });

  it("finds the runs made with the same model, description and output limits, and not those made with others", async () => {
    const asked = {
      model: "m7",
      description: "Makes greeting cards for any occasion.",
      outputLimits: { files: 7 },
    };
    await runPipeline(options("served", asked));
    const same = await forecast(options("served", asked));
    expect([same.evalRuns?.served, same.triggerRuns?.served]).toEqual([1, 2]);
    const otherModel = await forecast(options("served", { ...asked, model: "m8" }));
    expect([otherModel.evalRuns?.served, otherModel.triggerRuns?.served]).toEqual([0, 0]);
    const otherLimits = await forecast(options("served", { ...asked, outputLimits: { files: 8 } }));
    expect(otherLimits.evalRuns?.served).toBe(0);
    const otherDescription = await forecast(options("served", { ...asked, description: undefined }));
    expect([otherDescription.evalRuns?.served, otherDescription.triggerRuns?.served]).toEqual([1, 0]);
    // Twice as many runs a query: the stored first runs settle some queries, unless every run is asked for.
    const settled = await forecast(options("served", { ...asked, triggerRuns: 2 }));
    const every = await forecast(options("served", { ...asked, triggerRuns: 2, allRuns: true }));
    expect(settled.triggerRuns).toMatchObject({ runs: 4, served: 2 });
    expect(settled.triggerRuns?.toRun).toBeLessThan(2);
    expect(every.triggerRuns).toMatchObject({ runs: 4, served: 2, toRun: 2 });
    // `--model m7,m8 --dry-run`: each model's part finds its own runs.
    const parts = await planAgentsPipeline(
      {
        ...options("served", asked),
        agents: ["claude-code"],
        models: ["m7", "m8"],
        createAgent: () => bench.simulated(),
      },
      true,
    );
    expect(parts.map((p) => [p.model, p.plan.store?.evalRuns?.served])).toEqual([
      ["m7", 1],
      ["m8", 0],
    ]);
    // The eval runs would start in a copy of the project asked for.
    await expect(forecast(options("served", { ...asked, projectRoot: missing }), "evals")).rejects.toThrow(
      /no-such-folder/,
    );
  }, 60_000);

  it("counts a shard's share of the runs, and the trigger runs of both sets of conditions side by side", async () => {
    const shard = await planPipeline(
      options("counts", { only: ["1", "2"], shard: { index: 1, count: 2 } }),
      true,
    );
    expect(shard.store?.evalRuns?.runs).toBe(shard.agentRuns);
    expect(shard.store?.triggerRuns?.runs).toBe(shard.triggerRuns);
    expect(shard.agentRuns + shard.triggerRuns).toBeLessThan(4);
    const sideBySide = await forecast(options("counts", { conditions: { clean: true, real: true } }));
    expect(sideBySide.triggerRuns?.runs).toBe(4);
  });

  it("forecasts no trigger run from a trigger file with no query", async () => {
    const evalsAlone = await forecast(options("no-queries"), "evals");
    expect(evalsAlone.evalRuns?.runs).toBe(1);
    expect(evalsAlone).not.toHaveProperty("triggerRuns");
  });

  it("stops at a folder or file the trigger runs would need that is not there", async () => {
    await expect(forecast(options("missing", { installed: [missing] }))).rejects.toThrow(/no-such-folder/);
    await expect(forecast(options("missing", { withSkills: [missing] }))).rejects.toThrow(/no-such-folder/);
    await expect(forecast(options("missing", { projectRoot: missing }))).rejects.toThrow(/no-such-folder/);
    await expect(forecast(options("missing", { context: join(missing, "chat.json") }))).rejects.toThrow(
      /no-such-folder/,
    );
  });
});

describe("eval --dry-run and triggers --dry-run with a store", () => {
  it("forecasts the eval runs alone, or the trigger runs alone, free under the simulator", async () => {
    const given = { ...options("alone"), createAgent: () => bench.simulated() };
    const evals = await planEvalsWithStore({ ...given, runs: 1 }, true, true);
    expect(evals).toEqual({ evalRuns: expect.objectContaining({ runs: 1 }), costUsd: 0, savedUsd: 0 });
    const triggers = await planTriggersWithStore({ ...given, runs: 1, timeoutSeconds: 60 }, true);
    expect(triggers).toEqual({ triggerRuns: expect.objectContaining({ runs: 2 }), costUsd: 0, savedUsd: 0 });
  });
});
