import { describe, expect, it } from "vitest";
import { buildAgentMatrix, renderMatrixMarkdown } from "../../src/bench/index.js";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { AgentMatrix } from "../../src/contracts/matrix.js";

const stat = (mean: number) => ({ mean, stddev: 0 });
const run = (configuration: string, run_number: number, pass_rate: number, error?: string) => ({
  eval_id: 1,
  configuration,
  run_number,
  result: { pass_rate, passed: 0, failed: 0, total: 1, time_seconds: 1, tokens: 1, tool_calls: 1, errors: 0 },
  ...(error ? { error } : {}),
});

const benchmark = Benchmark.parse({
  metadata: {
    skill_name: "s",
    timestamp: "2026-01-01T00:00:00Z",
    evals_run: [1],
    runs_per_configuration: 2,
    baseline_configuration: "without_skill",
  },
  runs: [run("with_skill", 1, 1), run("with_skill", 2, 0, "timeout"), run("without_skill", 1, 0.25)],
  run_summary: {
    with_skill: { pass_rate: stat(0.9), time_seconds: stat(1), tokens: stat(1) },
    without_skill: { pass_rate: stat(0.25), time_seconds: stat(1), tokens: stat(1) },
  },
  statistics: {
    delta_pass_rate: { estimate: 0.65, ci_low: -0.1, ci_high: 0.9, confidence: 0.95, distinguishable: false },
  },
  notes: [],
});

describe("the agent matrix", () => {
  const matrix = buildAgentMatrix({
    skillName: "s",
    simulated: false,
    timestamp: "2026-01-01T00:00:00Z",
    outcomes: [
      {
        agent: "codex",
        version: "0.1.0",
        dir: "codex",
        status: "complete",
        benchmark,
        triggers: {
          total: 4,
          passed: 3,
          failed: 1,
          errors: 0,
          precision: 0.5,
          recall: 1,
          f1: 0.67,
          accuracy: 0.75,
        },
        costUsd: 1.5,
        wallSeconds: 42,
      },
      { agent: "gemini", dir: "gemini", status: "not_run", costUsd: 0, wallSeconds: 0 },
    ],
  });

  it("takes each agent's row from its benchmark and trigger summary, and parses as matrix.json", () => {
    expect(AgentMatrix.parse(matrix)).toEqual(matrix);
    expect(matrix.agents[0]).toMatchObject({
      with_skill_pass_rate: 0.9,
      baseline_pass_rate: 0.25,
      graded_runs: 2,
      errored_runs: 1,
      triggers: { precision: 0.5, recall: 1, accuracy: 0.75, passed: 3, total: 4 },
    });
    expect(matrix.agents[1]).toMatchObject({
      with_skill_pass_rate: null,
      baseline_configuration: null,
      delta_pass_rate: null,
      triggers: null,
      status: "not_run",
    });
  });

  it("renders benchmark.md: n/a where nothing was measured, ~ where the interval includes zero", () => {
    const markdown = renderMatrixMarkdown(matrix);
    expect(markdown).toContain(
      "| codex 0.1.0 | 90% | 25% (without_skill) | +0.65 [-0.10, +0.90] ~ | n/a | 50% | 100% | 75% | $1.5000 | 42.0s |  |",
    );
    expect(markdown).toContain(
      "| gemini | n/a | none | n/a | n/a | n/a | n/a | n/a | $0.0000 | 0.0s | not run |",
    );
    expect(markdown).toContain("- [codex](codex/benchmark.md)");
    expect(markdown).not.toContain("SIMULATED");
  });

  // `--model old,new`: one agent, a part per model, each with the skill's verdict.
  const withVerdict = (verdict: "helps" | "no effect", redundant: boolean) =>
    Benchmark.parse({
      ...benchmark,
      statistics: {
        ...benchmark.statistics,
        verdict: { verdict, floor: 0.05 },
        ...(redundant ? { redundant: { baseline_pass_rate: 0.9 } } : {}),
      },
    });
  const models = buildAgentMatrix({
    skillName: "s",
    simulated: true,
    timestamp: "2026-01-01T00:00:00Z",
    outcomes: [
      {
        agent: "claude-code",
        model: "old",
        dir: "old",
        status: "complete",
        benchmark: withVerdict("helps", false),
        costUsd: 0,
        wallSeconds: 1,
      },
      {
        agent: "claude-code",
        model: "new",
        dir: "new",
        status: "complete",
        benchmark: withVerdict("no effect", true),
        costUsd: 0,
        wallSeconds: 1,
      },
    ],
  });

  it("names each model's part and gives its verdict, redundant where the skill is", () => {
    expect(AgentMatrix.parse(models)).toEqual(models);
    expect(models.agents.map((r) => [r.agent, r.model, r.dir, r.verdict, r.redundant])).toEqual([
      ["claude-code", "old", "old", "helps", undefined],
      ["claude-code", "new", "new", "no effect", true],
    ]);
    const markdown = renderMatrixMarkdown(models);
    expect(markdown).toContain(
      "| claude-code · old | 90% | 25% (without_skill) | +0.65 [-0.10, +0.90] ~ | helps |",
    );
    expect(markdown).toContain(
      "| claude-code · new | 90% | 25% (without_skill) | +0.65 [-0.10, +0.90] ~ | redundant |",
    );
    expect(markdown).toContain("- [new](new/benchmark.md)");
  });
});
