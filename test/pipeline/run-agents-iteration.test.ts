import { appendFile, cp } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAgentsPipeline } from "../../src/pipeline/index.js";
import type { AgentsPipelineOptions } from "../../src/pipeline/run-agents.js";
import { agentsPipelineOptions, useCardBench } from "./pipeline-fixtures.js";

// Which iteration runAgentsPipeline writes into: the latest one again, or a new one. An interrupted iteration is
// made by a run cancelled before its parts start.
const bench = useCardBench();

async function run(workspace: string, overrides: Partial<AgentsPipelineOptions> = {}, cancel = false) {
  const controller = new AbortController();
  if (cancel) controller.abort();
  const { iteration, resumed } = await runAgentsPipeline(
    agentsPipelineOptions(bench, workspace, { signal: controller.signal, ...overrides }),
  );
  return { iteration, resumed };
}
const interrupted = (workspace: string, overrides: Partial<AgentsPipelineOptions> = {}) =>
  run(workspace, overrides, true);

describe("runAgentsPipeline's iteration", () => {
  it("starts a new iteration after an interrupted one that ran other agents or models", async () => {
    expect(await interrupted("other-lanes")).toEqual({ iteration: 1, resumed: false });
    expect(await interrupted("other-lanes", { models: ["m1", "m3"] })).toEqual({
      iteration: 2,
      resumed: false,
    });
  });

  it("starts a new iteration after an interrupted one that asked for other runs", async () => {
    expect(await interrupted("other-request")).toEqual({ iteration: 1, resumed: false });
    expect(await interrupted("other-request", { triggerRuns: 2 })).toEqual({ iteration: 2, resumed: false });
  });

  it("starts a new iteration after an interrupted one of the skill before it was edited", async () => {
    const skillPath = join(bench.dir, "edited", "card");
    await cp(join(bench.dir, "card"), skillPath, { recursive: true });
    expect(await interrupted("edited", { skillPath })).toEqual({ iteration: 1, resumed: false });
    await appendFile(join(skillPath, "SKILL.md"), "Sign it.\n");
    expect(await interrupted("edited", { skillPath })).toEqual({ iteration: 2, resumed: false });
  });

  it("starts a new iteration after a finished one, unless --resume continues it", async () => {
    const finished = { stage: "evals" as const };
    expect(await run("finished", finished)).toEqual({ iteration: 1, resumed: false });
    expect(await run("finished", finished)).toEqual({ iteration: 2, resumed: false });
    // --resume continues the latest iteration of the same agents, finished or not, whatever it asked for.
    expect(await interrupted("finished", { ...finished, resume: true, runs: 2 })).toEqual({
      iteration: 2,
      resumed: true,
    });
  });
});
