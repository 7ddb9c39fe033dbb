import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import type { StagingContext } from "../../src/run/execute-run.js";
import type { RunSpec } from "../../src/run/plan.js";
import { agentKeyParts, evalRunKey, storeSource } from "../../src/run/reuse.js";
import { fakeAgent } from "../tune/fake-agent.js";

describe("storeSource", () => {
  it("names the iteration folder, the run inside it and the workspace holding it", () => {
    const iteration = join("/ws", "iteration-3");
    expect(storeSource(iteration, join(iteration, "eval-1", "with_skill", "run-2"), 0.5)).toEqual({
      iteration: "iteration-3",
      run: "eval-1/with_skill/run-2",
      workspace: "/ws",
      cost_usd: 0.5,
    });
  });

  it("goes up from an agent's folder of a run of several agents to the iteration above it", () => {
    const agentDir = join("/ws", "iteration-2", "codex");
    expect(storeSource(agentDir, join(agentDir, "eval-1", "with_skill", "run-1"), 0)).toEqual({
      iteration: "iteration-2",
      run: "codex/eval-1/with_skill/run-1",
      workspace: "/ws",
      cost_usd: 0,
    });
  });

  it("takes an iteration folder as the iteration even in a workspace named like one", () => {
    const iteration = join("/ws", "iteration-7", "iteration-1");
    expect(storeSource(iteration, join(iteration, "eval-1", "with_skill", "run-1"), 0)).toMatchObject({
      iteration: "iteration-1",
      run: "eval-1/with_skill/run-1",
      workspace: join("/ws", "iteration-7"),
    });
  });

  it("writes the run's path with forward slashes, whatever separator the system's paths use", () => {
    const iteration = join("/ws", "iteration-4");
    expect(storeSource(iteration, `${iteration}/eval-1\\with_skill\\run-1`, 0).run).toBe(
      "eval-1/with_skill/run-1",
    );
  });

  it("keeps a folder that is not an agent's folder under an iteration as the iteration itself", () => {
    const dir = join("/ws", "elsewhere", "codex");
    expect(storeSource(dir, join(dir, "run-1"), 0)).toMatchObject({ iteration: "codex", run: "run-1" });
  });
});

describe("agentKeyParts", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillgym-reuse-key-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const agent = (over: Partial<Agent>): Agent => ({ ...fakeAgent([]).agent, ...over });

  it("is the agent's name, version, mode and model, with nulls for what is not known", async () => {
    expect(await agentKeyParts({ agent: agent({ version: "1.2.3", mode: "yolo" }), model: "m-1" })).toEqual({
      agent: "fake",
      version: "1.2.3",
      mode: "yolo",
      model: "m-1",
      simulated: false,
      sim_script: null,
    });
    expect(await agentKeyParts({ agent: agent({}), model: undefined })).toEqual({
      agent: "fake",
      version: null,
      mode: null,
      model: null,
      simulated: false,
      sim_script: null,
    });
  });

  it("holds the simulator's script, a sandbox and the names passed on, sorted, only when there are any", async () => {
    const script = join(dir, "script.json");
    await writeFile(script, '{"a":1}');
    const simulated = await agentKeyParts({
      agent: agent({ simulated: true, simScript: script }),
      model: undefined,
    });
    await writeFile(script, '{"a":2}');
    const changed = await agentKeyParts({
      agent: agent({ simulated: true, simScript: script }),
      model: undefined,
    });
    expect(simulated.sim_script).toMatch(/^[0-9a-f]{16,}$/);
    expect(changed.sim_script).not.toBe(simulated.sim_script);
    expect(
      await agentKeyParts({
        agent: agent({ sandboxed: true, passEnv: ["B_KEY", "A_KEY"] }),
        model: undefined,
      }),
    ).toMatchObject({ sandbox: true, env: ["A_KEY", "B_KEY"] });
    const plain = await agentKeyParts({ agent: agent({ sandboxed: false, passEnv: [] }), model: undefined });
    expect(Object.keys(plain)).not.toContain("sandbox");
    expect(Object.keys(plain)).not.toContain("env");
  });
});

describe("evalRunKey", () => {
  // A change of the key orphans every run stored before it: a store written by an earlier version serves nothing.
  it("stays the key a run is stored under", async () => {
    const spec = {
      configuration: "with_skill",
      eval: { prompt: "go" },
      timeoutMs: 60_000,
      runNumber: 1,
    } as RunSpec;
    const ctx = { agent: fakeAgent([]).agent } as StagingContext;
    expect(await evalRunKey(spec, ctx, async () => "workspace-hash")).toBe(
      "3caf23705cfbe26bc2467b62b2a39e0e5d0e7f3de138fa5c8619711a04c7ec61",
    );
  });

  it("fails with the staging error when a run's workspace cannot be staged to be hashed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "skillgym-reuse-key-"));
    try {
      const missing = join(dir, "no-such-fixture.txt");
      const spec = {
        configuration: "without_skill",
        eval: { id: 1, prompt: "go", fixtures: [{ source: missing, target: "data.txt" }] },
        timeoutMs: 60_000,
        runNumber: 1,
        runDir: join(dir, "iteration-1", "eval-1", "without_skill", "run-1"),
      } as unknown as RunSpec;
      const ctx = {
        agent: fakeAgent([]).agent,
        skill: { dir: join(dir, "skill"), name: "skill" },
        excludePaths: [],
        tempRoot: dir,
      } as StagingContext;
      await expect(evalRunKey(spec, ctx)).rejects.toThrow(`Fixture for data.txt not found: ${missing}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
