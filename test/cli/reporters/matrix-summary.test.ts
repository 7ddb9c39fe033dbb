import { describe, expect, it } from "vitest";
import { matrixLines, matrixSummaryLines } from "../../../src/cli/reporters/matrix-summary.js";
import type { AgentMatrix, AgentMatrixRow } from "../../../src/contracts/matrix.js";
import type { AgentsPipelineResult } from "../../../src/pipeline/index.js";
import { noSimScriptNotice } from "../../../src/sim/index.js";
import {
  evalRecord,
  evalSummary,
  pipelineResult,
  triggerRecord,
  triggerResults,
  triggerSpec,
  triggerSummary,
} from "./records.js";

const row = (agent: string, over: Partial<AgentMatrixRow> = {}): AgentMatrixRow => ({
  agent,
  dir: agent,
  status: "complete",
  with_skill_pass_rate: 0.9,
  baseline_configuration: "without_skill",
  baseline_pass_rate: 0.3,
  delta_pass_rate: { estimate: 0.6, ci_low: 0.4, ci_high: 0.8, confidence: 0.95, distinguishable: true },
  verdict: "helps",
  graded_runs: 4,
  errored_runs: 0,
  triggers: { precision: 1, recall: 0.5, accuracy: 0.75, passed: 3, total: 4 },
  cost_usd: 0.1234,
  wall_seconds: 12.34,
  ...over,
});

const matrix = (agents: AgentMatrixRow[]): AgentMatrix => ({
  skill_name: "card",
  timestamp: "2026-11-27T10:00:00Z",
  simulated: false,
  agents,
});

const twoAgents = matrix([
  row("claude-code", { version: "2.0.1" }),
  row("codex", {
    status: "not_run",
    with_skill_pass_rate: null,
    baseline_configuration: null,
    baseline_pass_rate: null,
    delta_pass_rate: null,
    triggers: null,
    cost_usd: 0,
    wall_seconds: 0,
  }),
]);

const result = (over: Partial<AgentsPipelineResult> = {}): AgentsPipelineResult => ({
  iterationDir: "/ws/iteration-2",
  iteration: 2,
  resumed: false,
  parts: [
    { agent: "claude-code", name: "claude-code", dir: "iteration-2/claude-code" },
    { agent: "codex", name: "codex", dir: "iteration-2/codex" },
  ],
  matrix: twoAgents,
  matrixFile: "/ws/iteration-2/matrix.json",
  markdownFile: "/ws/iteration-2/benchmark.md",
  reportFile: "/ws/iteration-2/report.html",
  gates: [],
  costUsd: 0.1234,
  budgetExhausted: false,
  cancelled: false,
  simulated: false,
  ...over,
});

const table = [
  "  Agent              With skill  Baseline             Delta [95% CI]        Verdict  trig. precision  trig. recall  trig. accuracy  Cost     Wall time  Note",
  "  claude-code 2.0.1  90%         30% (without_skill)  +0.60 [+0.40, +0.80]  helps    100%             50%           75%             $0.1234  12.3s",
  "  codex              n/a         none                 n/a                   helps    n/a              n/a           n/a             $0.0000  0.0s       not run",
];

describe("matrixLines", () => {
  it("pads every column but the last to its widest cell, indented", () => {
    expect(matrixLines(twoAgents)).toEqual(table);
  });

  it("is the header alone for no agents", () => {
    expect(matrixLines(matrix([]))).toEqual([
      "  Agent  With skill  Baseline  Delta [95% CI]  Verdict  trig. precision  trig. recall  trig. accuracy  Cost  Wall time  Note",
    ]);
  });
});

describe("matrixSummaryLines", () => {
  it("prints the table, each part's cost, the total, the files; nothing else when all went well", () => {
    expect(matrixSummaryLines(result())).toEqual([
      "agents of /ws/iteration-2:",
      ...table,
      "cost: $0.1234 (all agents)",
      "matrix: /ws/iteration-2/matrix.json",
      "report: /ws/iteration-2/report.html",
    ]);
  });

  it("names the parts models when one agent ran several models, parts when both differ", () => {
    const models = result({
      parts: [
        { agent: "claude-code", model: "haiku", name: "haiku", dir: "iteration-2/haiku" },
        { agent: "claude-code", model: "sonnet", name: "sonnet", dir: "iteration-2/sonnet" },
      ],
    });
    expect(matrixSummaryLines(models)[0]).toBe("models of /ws/iteration-2:");
    expect(matrixSummaryLines(models).at(-3)).toBe("cost: $0.1234 (all models)");
    const both = result({
      parts: [
        { agent: "claude-code", model: "haiku", name: "claude-code-haiku", dir: "a" },
        { agent: "codex", model: "o4", name: "codex-o4", dir: "b" },
      ],
    });
    expect(matrixSummaryLines(both)[0]).toBe("parts of /ws/iteration-2:");
    const agentsOneModel = result({
      parts: [
        { agent: "claude-code", model: "m", name: "claude-code", dir: "a" },
        { agent: "codex", model: "m", name: "codex", dir: "b" },
      ],
    });
    expect(matrixSummaryLines(agentsOneModel)[0]).toBe("agents of /ws/iteration-2:");
  });

  it("says each part's errors, settled runs, rate limits and cost; a cancelled, budget-stopped, simulated run; the gates", () => {
    const limits = {
      events: 2,
      reductions: 2,
      lowest_concurrency: 1,
      final_concurrency: 2,
      max_concurrency: 4,
    };
    const claude = pipelineResult({
      iterationDir: "/ws/iteration-2/claude-code",
      simulated: true,
      simScript: null,
      costUsd: 0.05,
      savings: { reused: 2, ran: 3, savedUsd: 0.04 },
      evals: evalSummary(
        [
          evalRecord(),
          evalRecord({ outcome: "timeout", runNumber: 2 }),
          evalRecord({ outcome: "crash", runNumber: 3 }),
          evalRecord({ outcome: "cancelled", runNumber: 4 }),
        ],
        { rateLimits: limits },
      ),
      triggers: triggerSummary(
        triggerResults({
          runs_per_query: 3,
          all_runs: false,
          results: [
            {
              query: "q",
              should_trigger: true,
              trigger_rate: 1,
              triggers: 2,
              runs: 2,
              errors: 0,
              pass: true,
            },
          ],
        }),
        [triggerRecord(triggerSpec(0, 1))],
        { rateLimits: { ...limits, reductions: 1 } },
      ),
    });
    const codex = pipelineResult({
      iterationDir: "/ws/iteration-2/codex",
      costUsd: 0.0734,
      // Cancelled trigger runs: their settled runs are not told.
      triggers: triggerSummary(
        triggerResults({
          runs_per_query: 3,
          all_runs: false,
          results: [
            {
              query: "q",
              should_trigger: true,
              trigger_rate: 1,
              triggers: 1,
              runs: 1,
              errors: 0,
              pass: true,
            },
          ],
        }),
        [],
        { cancelled: true },
      ),
    });
    const lines = matrixSummaryLines(
      result({
        simulated: true,
        cancelled: true,
        budgetExhausted: true,
        parts: [
          { agent: "claude-code", name: "claude-code", dir: "iteration-2/claude-code", result: claude },
          { agent: "codex", name: "codex", dir: "iteration-2/codex", result: codex },
        ],
        gates: [
          { name: "min-pass-rate", agent: "claude-code", passed: true, message: "90% ≥ 80%" },
          { name: "min-trigger-accuracy", passed: false, message: "65% < 70%" },
        ],
      }),
    );
    expect(lines).toEqual([
      "SIMULATED: skillgym sim stood in for the model; these results test the suite, not the skill.",
      noSimScriptNotice,
      "agents of /ws/iteration-2:",
      ...table,
      "claude-code: 2 eval runs errored (left out of the pass rates)",
      "claude-code: settled verdicts saved 1 of 3 trigger runs",
      "rate limited (claude-code eval runs): 2 429 answers; concurrency lowered 2 times, down to 1 of 4, ended at 2",
      "rate limited (claude-code trigger runs): 2 429 answers; concurrency lowered once, down to 1 of 4, ended at 2",
      "cancelled: run again to finish the iteration",
      "stopped scheduling runs: --max-cost reached",
      "cost [claude-code]: $0.0500 spent on 3 runs; 2 runs reused from the result store saved $0.0400",
      "cost [codex]: $0.0734",
      "cost: $0.1234 (all agents)",
      "gate min-pass-rate [claude-code]: passed (90% ≥ 80%)",
      "gate min-trigger-accuracy: FAILED (65% < 70%)",
      "matrix: /ws/iteration-2/matrix.json",
      "report: /ws/iteration-2/report.html",
    ]);
  });

  it("gives no sim-script notice when the simulator had a script or ran no evals, and passes --fresh on", () => {
    const withScript = pipelineResult({
      simulated: true,
      simScript: "/s/sim-script.json",
      evals: evalSummary([]),
    });
    const triggersOnly = pipelineResult({ simulated: true, simScript: null });
    const lines = matrixSummaryLines(
      result({
        simulated: true,
        parts: [
          { agent: "claude-code", name: "claude-code", dir: "a", result: withScript },
          { agent: "codex", name: "codex", dir: "b", result: triggersOnly },
        ],
      }),
      { fresh: true },
    );
    expect(lines).not.toContain(noSimScriptNotice);
    expect(lines.slice(0, 2)).toEqual([
      "SIMULATED: skillgym sim stood in for the model; these results test the suite, not the skill.",
      "agents of /ws/iteration-2:",
    ]);
    expect(lines).toContain(
      "cost [claude-code]: $0.0000 spent on 0 runs; the result store was not read (--fresh): every run was made again and stored",
    );
  });

  it("gives the sim-script notice for a simulated part without a script that ran evals", () => {
    const noScript = pipelineResult({ simulated: true, simScript: null, evals: evalSummary([]) });
    const lines = matrixSummaryLines(
      result({ parts: [{ agent: "claude-code", name: "claude-code", dir: "a", result: noScript }] }),
    );
    expect(lines.slice(0, 2)).toEqual([noSimScriptNotice, "agents of /ws/iteration-2:"]);
  });
});
