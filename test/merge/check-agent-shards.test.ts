import { describe, expect, it } from "vitest";
import type { AgentsIterationRecord } from "../../src/contracts/matrix.js";
import type { IterationRecord } from "../../src/contracts/run-record.js";
import type { ShardInfo } from "../../src/contracts/shard.js";
import { type AnyShard, checkAgentShards, type ShardData } from "../../src/merge/index.js";

function part(
  source: string,
  agent: string,
  index: number,
  runs: string[],
  planHash = `plan-${agent}`,
): ShardData {
  const iteration = {
    skill_name: "s",
    skill_path: "/s",
    skill_hash: "skill-a",
    status: "complete",
    started_at: "2026-01-01T00:00:00Z",
    agent: { name: agent },
    plan: { evals: [1], configurations: ["with_skill"], runs_per_configuration: 2 },
    shard: { index, count: 2, plan_hash: planHash },
  } as IterationRecord & { shard: ShardInfo };
  return {
    source: `${source}/${agent}`,
    dir: `/x/${source}/${agent}`,
    iteration,
    evalRuns: runs,
    triggerRuns: [],
    finished: { evalRuns: runs.length, triggerRuns: 0 },
  };
}

function agentsShard(source: string, agents: string[], index: number, runs: string[] = []): AnyShard {
  const record = {
    skill_name: "s",
    skill_path: "/s",
    skill_hash: "skill-a",
    status: "complete",
    started_at: "2026-01-01T00:00:00Z",
    agents,
    request: { evals: [1], runs_per_configuration: 2, baseline: "none", trigger_queries: 0, trigger_runs: 1 },
  } as AgentsIterationRecord;
  return {
    kind: "agents",
    shard: { source, dir: `/x/${source}`, record, parts: agents.map((a) => part(source, a, index, runs)) },
  };
}

describe("checkAgentShards", () => {
  it("accepts shards of the same agents and checks each agent's parts as one plan", () => {
    const check = checkAgentShards([
      agentsShard("a", ["claude-code", "codex"], 1, ["eval-1/with_skill/run-1"]),
      agentsShard("b", ["claude-code", "codex"], 2, ["eval-1/with_skill/run-2"]),
    ]);
    expect(check.problems).toEqual([]);
    expect(check.agents.map((a) => [a.agent, a.check.missing])).toEqual([
      ["claude-code", []],
      ["codex", []],
    ]);
  });

  it("names the shard whose agents differ, in order too, and one that ran one agent", () => {
    expect(
      checkAgentShards([
        agentsShard("a", ["claude-code", "codex"], 1),
        agentsShard("b", ["codex", "claude-code"], 2),
      ]).problems,
    ).toEqual(["a vs b:\n    agents: claude-code, codex vs codex, claude-code"]);
    const one: AnyShard = { kind: "one", shard: part("c", "claude-code", 2, []) };
    const mixed = checkAgentShards([one, agentsShard("a", ["claude-code", "codex"], 1)]);
    expect(mixed.problems).toEqual([
      "a vs c/claude-code:\n    agents: claude-code, codex (a run of several) vs claude-code (a run of one)",
    ]);
    expect(mixed.agents).toEqual([]);
  });

  it("prefixes each agent's own problems with the agent", () => {
    const a = agentsShard("a", ["claude-code", "codex"], 1, ["eval-1/with_skill/run-1"]);
    const b = agentsShard("b", ["claude-code", "codex"], 2, ["eval-1/with_skill/run-1"]);
    const problems = checkAgentShards([a, b]).problems;
    expect(problems).toEqual([
      "claude-code: b/claude-code: run eval-1/with_skill/run-1 is also in a/claude-code",
      "codex: b/codex: run eval-1/with_skill/run-1 is also in a/codex",
    ]);
  });

  it("refuses no folders, and names a shard of one agent that recorded none", () => {
    expect(checkAgentShards([])).toEqual({ problems: ["no shard folders given"], agents: [] });
    const old = part("c", "claude-code", 2, []);
    const unnamed: AnyShard = {
      kind: "one",
      shard: { ...old, iteration: { ...old.iteration, agent: undefined } as typeof old.iteration },
    };
    expect(checkAgentShards([agentsShard("a", ["claude-code", "codex"], 1), unnamed]).problems).toEqual([
      "a vs c/claude-code:\n    agents: claude-code, codex (a run of several) vs (one agent) (a run of one)",
    ]);
  });
});
