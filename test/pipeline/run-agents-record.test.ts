import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAgentsPipeline } from "../../src/pipeline/index.js";
import type { AgentsPipelineOptions } from "../../src/pipeline/run-agents.js";
import { readJson } from "../e2e/helpers.js";
import { agentsPipelineOptions, useCardBench } from "./pipeline-fixtures.js";

// What runAgentsPipeline decides before any part runs: the agents it asks for, the iteration.json it writes. Each run
// is cancelled before it starts, so no part runs.
const bench = useCardBench();

async function cancelled(workspace: string, overrides: Partial<AgentsPipelineOptions> = {}) {
  const controller = new AbortController();
  controller.abort();
  const wantsJudge: boolean[] = [];
  const result = await runAgentsPipeline(
    agentsPipelineOptions(bench, workspace, {
      signal: controller.signal,
      createAgent: (_agent, inputs) => {
        wantsJudge.push(inputs.wantsJudge);
        return bench.simulated();
      },
      ...overrides,
    }),
  );
  const record = await readJson(join(result.iterationDir, "iteration.json"));
  return { result, record, wantsJudge };
}

describe("runAgentsPipeline before its parts run", () => {
  it("asks the agents for a judge only under --grade, when some eval of the suite has expectations", async () => {
    expect((await cancelled("judge")).wantsJudge).toEqual([true]);
    expect((await cancelled("judge", { grade: false })).wantsJudge).toEqual([false]);
    const checksOnly = await cancelled("judge", {
      evalsPath: join(bench.dir, "card", "evals", "checks-only.json"),
      only: ["3"],
    });
    expect(checksOnly.wantsJudge).toEqual([false]);
    expect(checksOnly.record.request).toMatchObject({ evals: [3] });
  });

  it("records the baseline by name, and no evals for the trigger stage alone", async () => {
    const { record } = await cancelled("request", { baseline: "without_skill", stage: "triggers" });
    expect(record.request).toEqual({
      evals: [],
      runs_per_configuration: 1,
      baseline: "without_skill",
      trigger_queries: 2,
      trigger_runs: 1,
    });
  });

  it("records each part's lane when one --model is given, and none when no model is", async () => {
    const agents = ["claude-code", "codex"];
    const one = await cancelled("lanes", { agents, models: undefined, model: "m9" });
    expect(one.record.lanes).toEqual([
      { agent: "claude-code", model: "m9", dir: "claude-code" },
      { agent: "codex", model: "m9", dir: "codex" },
    ]);
    expect(one.result.parts.map((p) => [p.name, p.model])).toEqual([
      ["claude-code", "m9"],
      ["codex", "m9"],
    ]);
    const none = await cancelled("lanes", { agents, models: undefined });
    expect(none.record.agents).toEqual(agents);
    expect(none.record).not.toHaveProperty("lanes");
    expect(none.result.parts.map(({ result: _r, ...part }) => part)).toEqual(
      agents.map((agent) => ({ agent, name: agent, dir: join(none.result.iterationDir, agent) })),
    );
  });

  it("calls a run in which no part ran not simulated", async () => {
    const { result, record } = await cancelled("none-ran");
    expect(result.simulated).toBe(false);
    expect(result.matrix.simulated).toBe(false);
    expect(record.simulated).toBe(false);
  });

  it("ends a trigger run cancelled as its first part begins as interrupted, with the root's report", async () => {
    const controller = new AbortController();
    const result = await runAgentsPipeline(
      agentsPipelineOptions(bench, "cancelled-part", {
        stage: "triggers",
        signal: controller.signal,
        onAgent: () => controller.abort(),
      }),
    );
    expect(result.cancelled).toBe(true);
    expect(result.matrix.agents.map((a) => [a.model, a.status])).toEqual([
      ["m1", "interrupted"],
      ["m2", "not_run"],
    ]);
    expect(result.parts[0]?.result?.reportFile).toBeUndefined();
    expect(result.reportFile).toBe(join(result.iterationDir, "report.html"));
    expect((await readJson(join(result.iterationDir, "iteration.json"))).status).toBe("interrupted");
  }, 60_000);
});
