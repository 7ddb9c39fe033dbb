import { describe, expect, it } from "vitest";
import { buildAgentMatrix } from "../../src/bench/agent-matrix.js";
import { Benchmark } from "../../src/contracts/benchmark.js";

const stat = (mean: number) => ({ mean, stddev: 0, n: 1 });
const run = (configuration: string, run_number: number, error?: string) => ({
  eval_id: 1,
  configuration,
  run_number,
  result: { pass_rate: 1, passed: 1, failed: 0, total: 1 },
  ...(error ? { error } : {}),
});

describe("one agent's row of the matrix", () => {
  it("copies the whole row from a benchmark with an old_skill baseline", () => {
    const benchmark = Benchmark.parse({
      metadata: {
        skill_name: "s",
        timestamp: "2026-01-01T00:00:00Z",
        evals_run: [1],
        runs_per_configuration: 2,
        baseline_configuration: "old_skill",
      },
      runs: [run("with_skill", 1), run("old_skill", 1, "timeout"), run("old_skill", 2, "overloaded")],
      run_summary: { with_skill: { pass_rate: stat(1), time_seconds: stat(1), tokens: stat(1) } },
      statistics: {
        delta_pass_rate: {
          estimate: 0.5,
          ci_low: 0.25,
          ci_high: 0.75,
          confidence: 0.95,
          distinguishable: true,
        },
      },
    });
    const matrix = buildAgentMatrix({
      skillName: "s",
      simulated: false,
      timestamp: "2026-01-02T00:00:00Z",
      outcomes: [
        {
          agent: "claude-code",
          model: "opus",
          dir: "opus",
          status: "interrupted",
          benchmark,
          costUsd: 0.5,
          wallSeconds: 12,
        },
      ],
    });
    expect(matrix).toEqual({
      skill_name: "s",
      timestamp: "2026-01-02T00:00:00Z",
      simulated: false,
      agents: [
        {
          agent: "claude-code",
          model: "opus",
          dir: "opus",
          status: "interrupted",
          with_skill_pass_rate: 1,
          baseline_configuration: "old_skill",
          // The baseline has no graded run, so no summary.
          baseline_pass_rate: null,
          delta_pass_rate: {
            estimate: 0.5,
            ci_low: 0.25,
            ci_high: 0.75,
            confidence: 0.95,
            distinguishable: true,
          },
          graded_runs: 1,
          errored_runs: 2,
          triggers: null,
          cost_usd: 0.5,
          wall_seconds: 12,
        },
      ],
    });
  });

  it("gives an agent without a benchmark nulls and no runs", () => {
    const matrix = buildAgentMatrix({
      skillName: "s",
      simulated: true,
      timestamp: "2026-01-02T00:00:00Z",
      outcomes: [
        { agent: "codex", version: "1.0", dir: "codex", status: "not_run", costUsd: 0, wallSeconds: 0 },
      ],
    });
    expect(matrix.simulated).toBe(true);
    expect(matrix.agents).toEqual([
      {
        agent: "codex",
        version: "1.0",
        dir: "codex",
        status: "not_run",
        with_skill_pass_rate: null,
        baseline_configuration: null,
        baseline_pass_rate: null,
        delta_pass_rate: null,
        graded_runs: 0,
        errored_runs: 0,
        triggers: null,
        cost_usd: 0,
        wall_seconds: 0,
      },
    ]);
  });
});
