import { describe, expect, it } from "vitest";
import { matrixCells, matrixHeader, renderMatrixMarkdown } from "../../src/bench/render-matrix.js";
import type { AgentMatrix, AgentMatrixRow } from "../../src/contracts/matrix.js";

const row = (overrides: Partial<AgentMatrixRow> = {}): AgentMatrixRow => ({
  agent: "codex",
  dir: "codex",
  status: "complete",
  with_skill_pass_rate: 0.5,
  baseline_configuration: "old_skill",
  baseline_pass_rate: 0.5,
  delta_pass_rate: { estimate: 0, ci_low: -0.25, ci_high: 0.125, confidence: 0.95, distinguishable: false },
  graded_runs: 4,
  errored_runs: 0,
  triggers: null,
  cost_usd: 0.12345,
  wall_seconds: 61.25,
  ...overrides,
});

describe("matrixCells", () => {
  it("writes one agent's row: a zero delta signed +, the interval's ends, the cost to four decimals", () => {
    expect(matrixCells(row())).toEqual([
      "codex",
      "50%",
      "50% (old_skill)",
      "+0.00 [-0.25, +0.13] ~",
      "n/a",
      "n/a",
      "n/a",
      "n/a",
      "$0.1235",
      "61.3s",
      "",
    ]);
  });

  it("names the model without a version, drops ~ from a distinguishable interval, and gives the trigger scores", () => {
    const cells = matrixCells(
      row({
        model: "gpt-5",
        verdict: "hurts",
        delta_pass_rate: {
          estimate: -0.5,
          ci_low: -0.75,
          ci_high: -0.25,
          confidence: 0.95,
          distinguishable: true,
        },
        triggers: { precision: 0.333, recall: 0.666, accuracy: 1, passed: 3, total: 3 },
        baseline_pass_rate: null,
        status: "not_run",
      }),
    );
    expect(cells).toEqual([
      "codex · gpt-5",
      "50%",
      "n/a (old_skill)",
      "-0.50 [-0.75, -0.25]",
      "hurts",
      "33%",
      "67%",
      "100%",
      "$0.1235",
      "61.3s",
      "not run",
    ]);
  });

  it("says none without a baseline", () => {
    expect(matrixCells(row({ baseline_configuration: null, delta_pass_rate: null }))[2]).toBe("none");
    expect(matrixCells(row({ baseline_configuration: null, delta_pass_rate: null }))[3]).toBe("n/a");
  });
});

describe("renderMatrixMarkdown", () => {
  it("writes the whole page: title, the SIMULATED line, the table and a link to each part", () => {
    const matrix: AgentMatrix = {
      skill_name: "pdf",
      timestamp: "2026-01-01T00:00:00Z",
      simulated: true,
      agents: [row(), row({ agent: "gemini", dir: "gemini", version: "1.2" })],
    };
    expect(matrixHeader).toHaveLength(11);
    expect(renderMatrixMarkdown(matrix)).toBe(
      [
        "# Agents — pdf",
        "",
        "**SIMULATED:** skillgym sim stood in for the model; these results test the suite, not the skill.",
        "",
        "| Agent | With skill | Baseline | Delta [95% CI] | Verdict | Trigger precision | Trigger recall | Trigger accuracy | Cost | Wall time | Note |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        "| codex | 50% | 50% (old_skill) | +0.00 [-0.25, +0.13] ~ | n/a | n/a | n/a | n/a | $0.1235 | 61.3s |  |",
        "| gemini 1.2 | 50% | 50% (old_skill) | +0.00 [-0.25, +0.13] ~ | n/a | n/a | n/a | n/a | $0.1235 | 61.3s |  |",
        "",
        "Delta is with_skill minus the baseline, with its 95% interval (paired bootstrap over evals); `~` marks an interval that includes zero. The verdict holds that interval against the effect floor; redundant: no effect while the baseline already passes.",
        "",
        "Each part's own benchmark:",
        "",
        "- [codex](codex/benchmark.md)",
        "- [gemini](gemini/benchmark.md)",
        "",
      ].join("\n"),
    );
  });

  it("goes from the title straight to the table when the results come from a model", () => {
    const matrix: AgentMatrix = {
      skill_name: "pdf",
      timestamp: "2026-01-01T00:00:00Z",
      simulated: false,
      agents: [row()],
    };
    expect(renderMatrixMarkdown(matrix).split("\n").slice(0, 3)).toEqual([
      "# Agents — pdf",
      "",
      "| Agent | With skill | Baseline | Delta [95% CI] | Verdict | Trigger precision | Trigger recall | Trigger accuracy | Cost | Wall time | Note |",
    ]);
  });
});
