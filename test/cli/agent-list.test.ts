import { describe, expect, it } from "vitest";
import { agentNames } from "../../src/agents/registry.js";
import { cli } from "./command-fixture.js";

describe("--agent as a list", () => {
  it("refuses a name given twice in `run`, before anything starts", async () => {
    const result = await cli(["run", "examples/release-notes", "--agent", "codex,codex", "--simulate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("codex named twice; name each agent once");
  });

  it("refuses an unknown name in a list and lists the known agents", async () => {
    const result = await cli(["run", "examples/release-notes", "--agent", "codex,foo", "--simulate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown agent "foo"');
    expect(result.stderr).toContain(`known agents: ${agentNames.join(", ")}, acp:<command…>`);
  });

  it("is refused by commands that run one agent, naming `run`", async () => {
    for (const command of ["eval", "triggers"]) {
      const result = await cli([command, "examples/release-notes", "--agent", "codex,gemini", "--simulate"]);
      expect(result.code, command).toBe(2);
      expect(result.stderr).toContain("only `skillgym run` takes a comma-separated list");
    }
  });

  it("cannot go with --agent-bin, which names one binary", async () => {
    const result = await cli([
      "run",
      "examples/release-notes",
      "--agent",
      "claude-code,gemini",
      "--agent-bin",
      "/bin/true",
      "--simulate",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--agent-bin names one binary");
  });

  it("plans per agent in a dry run and starts nothing", async () => {
    const result = await cli([
      "run",
      "examples/release-notes",
      "--agent",
      "claude-code,codex,gemini",
      "--simulate",
      "--runs",
      "2",
      "--trigger-runs",
      "1",
      "--dry-run",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const plan = JSON.parse(result.stdout);
    expect(plan.agents.map((a: { agent: string }) => a.agent)).toEqual(["claude-code", "codex", "gemini"]);
    // 3 evals × 2 configurations × 2 runs and 20 trigger queries × 1 run, for each agent.
    for (const agent of plan.agents) expect(agent).toMatchObject({ agentRuns: 12, triggerRuns: 20 });
    expect(plan.wall_seconds).toBeCloseTo(plan.agents[0].wallSeconds * 3);
    expect(plan.credentials).toBe("simulated");
  });
});

describe("--agent acp:<command…>", () => {
  it("takes an ACP agent's command, and refuses one skillgym cannot point at the simulator, before any run", async () => {
    const result = await cli(["triggers", "examples/csv-summary", "--agent", "acp:goose acp", "--simulate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--agent acp:goose acp cannot run under --simulate");
    expect(result.stderr).not.toContain("unknown agent");
  });

  it("refuses an empty command", async () => {
    const result = await cli(["triggers", "examples/csv-summary", "--agent", "acp:", "--simulate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no command after "acp:"');
  });
});
