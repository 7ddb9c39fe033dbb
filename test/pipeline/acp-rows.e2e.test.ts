import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../src/agents/index.js";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { AgentMatrix, AgentsIterationRecord } from "../../src/contracts/matrix.js";
import { IterationRecord } from "../../src/contracts/run-record.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { type AgentsPipelineResult, runAgentsPipeline } from "../../src/pipeline/index.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { agentDouble } from "../agent-double/index.js";
import { skillgymHere } from "../cli/cli-in-process.js";
import { fastRetry, readJson, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// A run of several agents with an ACP row: the claude-code adapter driving its test double against the sim, beside
// an ACP agent given by its command (the scripted ACP double, test/acp-double/agent.mjs, which needs no model).
const DOUBLE = join(import.meta.dirname, "..", "acp-double", "agent.mjs");
const ACP = `acp:node ${DOUBLE}`;

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;
let several: AgentsPipelineResult;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd(
      "haiku",
      "Writes a haiku poem. Use when the user asks for a haiku.",
      "# haiku\n",
    ),
    // Checks alone: no judge. The double loads the skill only when the run has it, and writes a.txt either way.
    "haiku/evals/evals.json": JSON.stringify({
      evals: [
        {
          id: 1,
          prompt: "skill-or-not a haiku please",
          checks: [{ type: "skill_invoked", skill: "haiku" }],
        },
        { id: 2, prompt: "write-inside a.txt", checks: [{ type: "file_exists", path: "a.txt" }] },
      ],
    }),
  });
  sim = await startSim({ script: SimScript.parse({ rules: [{ match: "a haiku please", skill: "haiku" }] }) });
  several = await runAgentsPipeline({
    skillPath: join(dir, "haiku"),
    workspace: join(dir, "several"),
    agents: ["claude-code", ACP],
    runs: 1,
    baseline: "without_skill",
    concurrency: 4,
    timeoutSeconds: 60,
    triggerRuns: 1,
    threshold: 0.5,
    triggerTimeoutSeconds: 60,
    retry: fastRetry,
    grade: true,
    gates: { minPassRate: 0.9 },
    createAgent: (agent) =>
      agent === "claude-code"
        ? createAgent("claude-code", { binary: agentDouble, simulatorUrl: sim.url })
        : createAgent(agent, {}),
    createGrader: () => Promise.reject(new Error("checks alone: no judge")),
  });
}, 120_000);
afterAll(async () => {
  await sim?.close();
  await cleanup?.();
});

describe("run --agent claude-code,acp:<command>", () => {
  it("runs the ACP agent into its own folder, acp-<program>, an ordinary iteration", async () => {
    const iteration = several.iterationDir;
    expect((await readdir(iteration)).sort()).toEqual(
      ["acp-node", "benchmark.md", "claude-code", "iteration.json", "matrix.json", "report.html"].sort(),
    );
    expect(AgentsIterationRecord.parse(await readJson(join(iteration, "iteration.json")))).toMatchObject({
      agents: ["claude-code", "acp-node"],
      status: "complete",
    });
    const own = IterationRecord.parse(await readJson(join(iteration, "acp-node", "iteration.json")));
    expect(own).toMatchObject({ status: "complete", agent: { name: "acp-node" } });
    expect(own.simulated).not.toBe(true);
  });

  it("writes a matrix row per agent, each under its folder's name, with its own rates", async () => {
    const matrix = AgentMatrix.parse(await readJson(several.matrixFile));
    expect(matrix.agents.map((row) => [row.agent, row.dir, row.status])).toEqual([
      ["claude-code", "claude-code", "complete"],
      ["acp-node", "acp-node", "complete"],
    ]);
    const acp = matrix.agents[1]!;
    // The skill's eval passes only with the skill, a.txt is written either way.
    expect(acp).toMatchObject({
      with_skill_pass_rate: 1,
      baseline_pass_rate: 0.5,
      graded_runs: 4,
      errored_runs: 0,
    });
    expect(several.gates.map((g) => [g.agent, g.passed])).toEqual([
      ["claude-code", false],
      ["acp-node", true],
    ]);
  });

  it("gives the ACP row the rates the same agent gives alone", async () => {
    const alone = await skillgymHere([
      "run",
      join(dir, "haiku"),
      "--agent",
      ACP,
      "--runs",
      "1",
      "--workspace",
      join(dir, "alone"),
      "--json",
    ]);
    expect(alone.code, alone.stderr).toBe(0);
    const benchmark = Benchmark.parse(await readJson(join(dir, "alone", "iteration-1", "benchmark.json")));
    const row = AgentMatrix.parse(await readJson(several.matrixFile)).agents.find(
      (r) => r.dir === "acp-node",
    );
    expect(row?.with_skill_pass_rate).toBe(benchmark.run_summary.with_skill?.pass_rate.mean);
    expect(row?.baseline_pass_rate).toBe(benchmark.run_summary.without_skill?.pass_rate.mean);
    expect(row?.delta_pass_rate).toEqual(benchmark.statistics?.delta_pass_rate);
    expect(row?.delta_pass_rate?.estimate).toBe(0.5);
  });

  it("stops before any run when the ACP agent cannot choose --model, or shares another's folder", async () => {
    const model = await skillgymHere([
      "run",
      join(dir, "haiku"),
      "--agent",
      ACP,
      "--model",
      "big-model",
      "--workspace",
      join(dir, "model"),
    ]);
    expect(model.code, model.stderr).toBe(2);
    expect(model.stderr).toContain(`--model big-model: node ${DOUBLE} offers no model selection over ACP`);
    const shared = await skillgymHere([
      "run",
      join(dir, "haiku"),
      "--agent",
      `${ACP},acp:node ${DOUBLE} --verbose`,
      "--workspace",
      join(dir, "shared"),
    ]);
    expect(shared.code, shared.stderr).toBe(2);
    expect(shared.stderr).toContain("would share the folder acp-node");
    // Nothing ran: no iteration folder in either workspace.
    const iterations = async (ws: string) =>
      (await readdir(ws).catch(() => [] as string[])).filter((name) => name.startsWith("iteration-"));
    expect(await iterations(join(dir, "model"))).toEqual([]);
    expect(await iterations(join(dir, "shared"))).toEqual([]);
  });
});
