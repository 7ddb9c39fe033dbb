import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAgentsPipeline } from "../../src/pipeline/index.js";
import type { AgentsPipelineOptions } from "../../src/pipeline/run-agents.js";
import { readJson, skillMd, writeTree } from "../e2e/helpers.js";
import { agentsPipelineOptions, useCardBench } from "./pipeline-fixtures.js";

// runAgentsPipeline in this process: two models of one agent, the claude-code adapter on the test double, against one
// sim for the file (agentsPipelineOptions).
const bench = useCardBench();

const options = (workspace: string, overrides: Partial<AgentsPipelineOptions> = {}) =>
  agentsPipelineOptions(bench, workspace, overrides);

describe("runAgentsPipeline", () => {
  it("runs each part into its own folder of one iteration, then writes the matrix, the report and each part's gates", async () => {
    const asked: string[] = [];
    const told: [string, number, number][] = [];
    const result = await runAgentsPipeline(
      options("models", {
        gates: { minTriggerAccuracy: 0.5 },
        createAgent: (agent) => {
          asked.push(agent);
          return bench.simulated();
        },
        onAgent: (part, index, count) => told.push([part, index, count]),
      }),
    );
    const root = join(bench.dir, "models", "iteration-1");
    // The agent is made once, before any part runs.
    expect(asked).toEqual(["claude-code"]);
    expect(told).toEqual([
      ["m1", 0, 2],
      ["m2", 1, 2],
    ]);
    expect(result).toMatchObject({ iterationDir: root, iteration: 1, resumed: false });
    expect(result.parts.map(({ result: _r, ...part }) => part)).toEqual([
      { agent: "claude-code", model: "m1", name: "m1", dir: join(root, "m1") },
      { agent: "claude-code", model: "m2", name: "m2", dir: join(root, "m2") },
    ]);
    expect(result.parts.map((p) => p.result?.iterationDir)).toEqual([join(root, "m1"), join(root, "m2")]);
    const record = await readJson(join(root, "iteration.json"));
    expect(record).toMatchObject({
      skill_name: "card",
      skill_path: join(bench.dir, "card"),
      status: "complete",
      simulated: true,
      agents: ["m1", "m2"],
      lanes: [
        { agent: "claude-code", model: "m1", dir: "m1" },
        { agent: "claude-code", model: "m2", dir: "m2" },
      ],
      request: {
        evals: [2],
        runs_per_configuration: 1,
        baseline: "none",
        trigger_queries: 2,
        trigger_runs: 1,
      },
    });
    expect(record.finished_at).toEqual(expect.any(String));
    expect(result.matrixFile).toBe(join(root, "matrix.json"));
    expect(result.markdownFile).toBe(join(root, "benchmark.md"));
    expect(result.reportFile).toBe(join(root, "report.html"));
    expect(await readJson(result.matrixFile)).toEqual(result.matrix);
    expect(result.matrix.simulated).toBe(true);
    expect(
      result.matrix.agents.map((a) => [
        a.agent,
        a.model,
        a.dir,
        a.status,
        a.graded_runs,
        a.triggers?.accuracy,
      ]),
    ).toEqual([
      ["claude-code", "m1", "m1", "complete", 1, 1],
      ["claude-code", "m2", "m2", "complete", 1, 1],
    ]);
    expect(await readFile(result.markdownFile, "utf8")).toContain("m2");
    expect(result.gates).toEqual([
      {
        name: "min-trigger-accuracy",
        agent: "m1",
        passed: true,
        message: "m1: trigger accuracy 100.0% >= 50.0%",
      },
      {
        name: "min-trigger-accuracy",
        agent: "m2",
        passed: true,
        message: "m2: trigger accuracy 100.0% >= 50.0%",
      },
    ]);
    expect(result).toMatchObject({ costUsd: 0, budgetExhausted: false, cancelled: false, simulated: true });
    const history = await readJson(join(bench.dir, "models", "history.json"));
    expect((history.iterations as unknown[]).length).toBe(2);
  }, 120_000);

  it("stops before the next part once --max-cost is spent, and an unchanged request then continues that iteration", async () => {
    const broke = await runAgentsPipeline(options("resumed", { maxCostUsd: 0 }));
    const root = join(bench.dir, "resumed", "iteration-1");
    expect(broke.budgetExhausted).toBe(true);
    expect(broke.parts.map((p) => p.result !== undefined)).toEqual([true, false]);
    expect(broke.matrix.agents.map((a) => a.status)).toEqual(["interrupted", "not_run"]);
    const interrupted = await readJson(join(root, "iteration.json"));
    expect(interrupted.status).toBe("interrupted");

    const again = await runAgentsPipeline(options("resumed"));
    expect(again).toMatchObject({ iterationDir: root, iteration: 1, resumed: true, budgetExhausted: false });
    expect(again.matrix.agents.map((a) => a.status)).toEqual(["complete", "complete"]);
    const record = await readJson(join(root, "iteration.json"));
    expect(record.status).toBe("complete");
    // Started when the interrupted attempt started.
    expect(record.started_at).toBe(interrupted.started_at);

    // A finished iteration is not continued: the same request again makes a new one.
    expect((await runAgentsPipeline(options("resumed", { stage: "evals" }))).iteration).toBe(2);
  }, 120_000);

  it("runs no part once cancelled, and says so", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runAgentsPipeline(options("cancelled", { signal: controller.signal }));
    expect(result.cancelled).toBe(true);
    expect(result.parts.every((p) => p.result === undefined)).toBe(true);
    expect(result.matrix.agents.map((a) => a.status)).toEqual(["not_run", "not_run"]);
    expect((await readJson(join(result.iterationDir, "iteration.json"))).status).toBe("interrupted");
  }, 60_000);

  it("finds the suite in the --project-root given", async () => {
    await writeTree(bench.dir, {
      "bare/SKILL.md": skillMd(
        "bare",
        "Writes bare cards. Use when the user asks for a bare card.",
        "Write it.",
      ),
      "project/evals/bare/triggers.json": JSON.stringify([{ query: "q1 a bare card", should_trigger: true }]),
    });
    const controller = new AbortController();
    controller.abort();
    const result = await runAgentsPipeline(
      options("project-suite", {
        skillPath: join(bench.dir, "bare"),
        projectRoot: join(bench.dir, "project"),
        only: undefined,
        signal: controller.signal,
      }),
    );
    expect(result.cancelled).toBe(true);
  }, 60_000);

  it("adds up what every part spent, with each part's model, its agent's version and the effect floor asked for", async () => {
    const result = await runAgentsPipeline(
      options("spent", {
        // Eval 1 has an expectation: one judge call a part, at a quarter dollar.
        only: ["1"],
        effectFloor: 0.2,
        createAgent: () => bench.simulated().then((agent) => ({ ...agent, version: "2.1.0" })),
      }),
    );
    expect(result.costUsd).toBe(0.5);
    expect(result.matrix.agents.map((a) => [a.dir, a.version])).toEqual([
      ["m1", "2.1.0"],
      ["m2", "2.1.0"],
    ]);
    for (const part of result.parts)
      expect((await readJson(join(part.dir, "iteration.json"))).model).toBe(part.model);
    const history = await readJson(join(bench.dir, "spent", "history.json"));
    expect(history.iterations).toEqual([
      expect.objectContaining({ version: "iteration-1/m1", effect_floor: 0.2 }),
      expect.objectContaining({ version: "iteration-1/m2", effect_floor: 0.2 }),
    ]);
  }, 120_000);

  it("leaves the part cancelled while it ran unfinished, and with it the iteration", async () => {
    const controller = new AbortController();
    const result = await runAgentsPipeline(
      options("cut", {
        signal: controller.signal,
        onAgent: (_part, index) => (index === 1 ? controller.abort() : undefined),
      }),
    );
    expect(result.parts.map((p) => p.result !== undefined)).toEqual([true, true]);
    expect(result.matrix.agents.map((a) => a.status)).toEqual(["complete", "interrupted"]);
    expect(result).toMatchObject({ cancelled: true, simulated: true });
    expect((await readJson(join(result.iterationDir, "iteration.json"))).status).toBe("interrupted");
  }, 120_000);

  it("calls a part interrupted whose trigger runs --max-cost held back", async () => {
    const result = await runAgentsPipeline(options("broke-triggers", { stage: "triggers", maxCostUsd: 0 }));
    expect(result.budgetExhausted).toBe(true);
    expect(result.matrix.agents.map((a) => a.status)).toEqual(["interrupted", "not_run"]);
    // The part that ran ran under the simulator.
    expect(result.simulated).toBe(true);
  }, 60_000);

  it("records no history row for a shard, which holds only part of the plan", async () => {
    const result = await runAgentsPipeline(options("shard", { shard: { index: 1, count: 2 } }));
    expect(result.matrix.agents.map((a) => a.status)).toEqual(["complete", "complete"]);
    await expect(access(join(bench.dir, "shard", "history.json"))).rejects.toThrow();
  }, 120_000);

  it("marks the iteration interrupted when a part fails, and passes the error on", async () => {
    const failing = options("failing", { installed: [join(bench.dir, "no-such-folder")] });
    await expect(runAgentsPipeline(failing)).rejects.toThrow();
    const record = await readJson(join(bench.dir, "failing", "iteration-1", "iteration.json"));
    expect(record.status).toBe("interrupted");
  }, 60_000);
});
