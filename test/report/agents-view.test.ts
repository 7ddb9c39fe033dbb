import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentsOfIteration, pickAgent, readIterationView } from "../../src/report/agents-view.js";
import { resolveViewTarget } from "../../src/report/target.js";
import { createViewReader } from "../../src/report/view-reader.js";
import {
  twoAgentsRecord as agentsRecord,
  tempDir,
  writeFakeIteration,
  writeFiles,
} from "./workspace-fixture.js";

// An iteration of two agents (`run --agent claude-code,codex`: a root iteration.json naming them, a folder each, the
// matrix), one of a single agent, and one of two agents without a matrix: which folder a request for each reads.
let ws: Awaited<ReturnType<typeof tempDir>>;
const root = () => join(ws.dir, "agents-ws");

const matrixRow = (agent: string, rate: number) => ({
  agent,
  dir: agent,
  status: "complete",
  with_skill_pass_rate: rate,
  baseline_configuration: "without_skill",
  baseline_pass_rate: 0.5,
  delta_pass_rate: null,
  graded_runs: 2,
  errored_runs: 0,
  triggers: null,
  cost_usd: 0,
  wall_seconds: 3,
});

const matrix = {
  skill_name: "demo-skill",
  timestamp: "2026-01-01T00:10:00.000Z",
  simulated: true,
  agents: [matrixRow("claude-code", 1), matrixRow("codex", 0.75)],
};

beforeAll(async () => {
  ws = await tempDir("skillgym-agents-view-");
  await writeFakeIteration(join(root(), "iteration-1"), { evals: 1, runsPerConfiguration: 1 });
  for (const agent of ["claude-code", "codex"]) {
    await writeFakeIteration(join(root(), "iteration-2", agent), { evals: 1, runsPerConfiguration: 1 });
    await writeFakeIteration(join(root(), "iteration-3", agent), { evals: 1, runsPerConfiguration: 2 });
  }
  await writeFiles(root(), {
    "iteration-2/iteration.json": JSON.stringify(agentsRecord),
    "iteration-2/matrix.json": JSON.stringify(matrix),
    "iteration-3/iteration.json": JSON.stringify({ ...agentsRecord, agents: ["codex", "claude-code"] }),
  });
});

afterAll(async () => {
  await ws?.cleanup();
});

async function iterationOf(n: number) {
  const reader = createViewReader(await resolveViewTarget(root()));
  const iteration = reader.target.all.find((it) => it.number === n);
  if (!iteration) throw new Error(`no iteration-${n}`);
  return { reader, iteration };
}

describe("agentsOfIteration", () => {
  it("names the agents and the matrix of an iteration of several agents", async () => {
    const { reader, iteration } = await iterationOf(2);
    expect(await agentsOfIteration(reader, iteration)).toEqual({
      agents: ["claude-code", "codex"],
      matrix: { ...matrix, agents: matrix.agents },
    });
  });

  it("gives a null matrix when matrix.json is missing, and nothing for an iteration of one agent", async () => {
    const three = await iterationOf(3);
    expect(await agentsOfIteration(three.reader, three.iteration)).toEqual({
      agents: ["codex", "claude-code"],
      matrix: null,
    });
    const one = await iterationOf(1);
    expect(await agentsOfIteration(one.reader, one.iteration)).toBeUndefined();
  });
});

describe("pickAgent", () => {
  it("reads an iteration of one agent itself, and no agent of it", async () => {
    const { reader, iteration } = await iterationOf(1);
    expect(await pickAgent(reader, iteration, undefined)).toEqual({ ref: iteration });
    expect(await pickAgent(reader, iteration, null)).toEqual({ ref: iteration });
    expect(await pickAgent(reader, iteration, "codex")).toBeUndefined();
  });

  it("picks the first agent when none is named, in the order the iteration ran them", async () => {
    const two = await iterationOf(2);
    expect(await pickAgent(two.reader, two.iteration, undefined)).toEqual({
      ref: {
        number: 2,
        name: "iteration-2/claude-code",
        dir: join(root(), "iteration-2", "claude-code"),
        agent: "claude-code",
      },
      agents: ["claude-code", "codex"],
      agent: "claude-code",
      matrix,
    });
    const three = await iterationOf(3);
    expect((await pickAgent(three.reader, three.iteration, null))?.agent).toBe("codex");
  });

  it("picks the agent named, and none that the iteration did not run", async () => {
    const { reader, iteration } = await iterationOf(2);
    expect(await pickAgent(reader, iteration, "codex")).toEqual({
      ref: {
        number: 2,
        name: "iteration-2/codex",
        dir: join(root(), "iteration-2", "codex"),
        agent: "codex",
      },
      agents: ["claude-code", "codex"],
      agent: "codex",
      matrix,
    });
    expect(await pickAgent(reader, iteration, "gemini")).toBeUndefined();
    expect(await pickAgent(reader, iteration, "")).toBeUndefined();
  });
});

describe("readIterationView", () => {
  it("shows the picked agent's runs with the agents and the matrix", async () => {
    const { reader, iteration } = await iterationOf(2);
    const picked = await pickAgent(reader, iteration, "codex");
    if (!picked) throw new Error("codex not picked");
    const view = await readIterationView(reader, picked);
    expect(view).toMatchObject({
      number: 2,
      name: "iteration-2/codex",
      agents: ["claude-code", "codex"],
      agent: "codex",
      matrix,
    });
    expect(view.runs.map((r) => r.id)).toEqual(["eval-e1/with_skill/run-1", "eval-e1/without_skill/run-1"]);
  });

  it("gives a null matrix for agents without matrix.json, and no agent fields for one agent", async () => {
    const three = await iterationOf(3);
    const picked = await pickAgent(three.reader, three.iteration, "claude-code");
    if (!picked) throw new Error("claude-code not picked");
    const view = await readIterationView(three.reader, picked);
    expect([view.agents, view.agent, view.matrix, view.runs.length]).toEqual([
      ["codex", "claude-code"],
      "claude-code",
      null,
      4,
    ]);
    const one = await iterationOf(1);
    const single = await readIterationView(one.reader, { ref: one.iteration });
    expect(single.name).toBe("iteration-1");
    expect(single).not.toHaveProperty("agents");
    expect(single).not.toHaveProperty("agent");
    expect(single).not.toHaveProperty("matrix");
    // An agent without the list of agents is not shown as one of several.
    const halfPicked = await readIterationView(one.reader, { ref: one.iteration, agent: "codex" });
    expect(halfPicked).not.toHaveProperty("agent");
    const noAgent = await readIterationView(one.reader, { ref: one.iteration, agents: ["a", "b"] });
    expect(noAgent).not.toHaveProperty("agents");
    const noMatrix = await readIterationView(one.reader, {
      ref: one.iteration,
      agents: ["a", "b"],
      agent: "a",
    });
    expect([noMatrix.agents, noMatrix.agent, noMatrix.matrix]).toEqual([["a", "b"], "a", null]);
  });
});
