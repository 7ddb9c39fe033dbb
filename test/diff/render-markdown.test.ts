import { describe, expect, it } from "vitest";
import type { DiffReport } from "../../src/contracts/diff.js";
import { regressionLines, renderDiffMarkdown } from "../../src/diff/render-markdown.js";

const method = "bootstrap of mean(B) − mean(A)";
const longQuery = `please ${"summarise | the quarterly sales ".repeat(4)}file`;

// One skill's iteration 2 against iteration 1: an eval regressed, one unchanged, one without graded runs on a side,
// one undecided; evals on one side only; a trigger query that stopped passing, one unchanged, one unscored.
const single: DiffReport = {
  a: "/ws/csv-summary-workspace/iteration-1",
  b: "/ws/csv-summary-workspace/iteration-2",
  effect_floor: 0.05,
  method,
  regressions: 2,
  parts: [
    {
      overall: {
        difference: { estimate: -0.12, ci_low: -0.3, ci_high: 0.05, confidence: 0.95 },
        change: "inconclusive",
        runs_to_decide: 12,
      },
      evals: [
        {
          eval_id: 1,
          eval_name: "csv summary",
          a_pass_rate: 1,
          b_pass_rate: 0.5,
          a_runs: 3,
          b_runs: 3,
          difference: { estimate: -0.5, ci_low: -0.8333, ci_high: -0.1667, confidence: 0.95 },
          change: "regressed",
        },
        {
          eval_id: 2,
          eval_name: "eval-2",
          a_pass_rate: 0.75,
          b_pass_rate: 0.75,
          a_runs: 2,
          b_runs: 2,
          difference: { estimate: 0, ci_low: -0.004, ci_high: 0.004, confidence: 0.9 },
          change: "unchanged",
        },
        {
          eval_id: "edge",
          eval_name: "pipes | and\nnewlines",
          a_pass_rate: null,
          b_pass_rate: 0.3333,
          a_runs: 0,
          b_runs: 2,
          difference: null,
          change: "inconclusive",
          note: "fewer than 2 graded with_skill runs on a side: no interval",
        },
        {
          eval_id: 4,
          a_pass_rate: 0.5,
          b_pass_rate: 0.6,
          a_runs: 2,
          b_runs: 2,
          difference: { estimate: 0.1, ci_low: -0.2, ci_high: 0.4, confidence: 0.95 },
          change: "inconclusive",
          runs_to_decide: 9,
        },
      ],
      only_in_a: [5, "old-eval"],
      only_in_b: ["new-eval", 7],
      queries: [
        {
          query: "summarise this csv",
          should_trigger: true,
          a_rate: 1,
          b_rate: 0.3333,
          a_pass: true,
          b_pass: false,
          change: "regressed",
        },
        {
          query: "what time is it",
          should_trigger: false,
          a_rate: 0,
          b_rate: 0,
          a_pass: true,
          b_pass: true,
          change: "unchanged",
        },
        {
          query: longQuery,
          should_trigger: false,
          a_rate: null,
          b_rate: 0.5,
          a_pass: null,
          b_pass: false,
          change: "inconclusive",
        },
      ],
      queries_only_in_a: [],
      queries_only_in_b: [],
    },
  ],
};

// An iteration of two agents: one improved with every query unchanged, the other with no eval in common.
const agents: DiffReport = {
  a: "/ws/iteration-3",
  b: "/ws/iteration-4",
  effect_floor: 0.1,
  method,
  regressions: 1,
  parts: [
    {
      agent: "claude-code",
      overall: {
        difference: { estimate: 0.4, ci_low: 0.25, ci_high: 0.55, confidence: 0.95 },
        change: "improved",
      },
      evals: [
        {
          eval_id: 1,
          eval_name: "eval-1",
          a_pass_rate: 0.5,
          b_pass_rate: 0.9,
          a_runs: 2,
          b_runs: 2,
          difference: { estimate: 0.4, ci_low: 0.25, ci_high: 0.55, confidence: 0.95 },
          change: "improved",
        },
      ],
      only_in_a: [],
      only_in_b: [],
      queries: [
        {
          query: "make a csv summary",
          should_trigger: true,
          a_rate: 1,
          b_rate: 1,
          a_pass: true,
          b_pass: true,
          change: "unchanged",
        },
      ],
      queries_only_in_a: [],
      queries_only_in_b: [],
    },
    {
      agent: "codex",
      overall: null,
      evals: [],
      only_in_a: [],
      only_in_b: [],
      queries: [
        {
          query: "csv please",
          should_trigger: true,
          a_rate: 0.6667,
          b_rate: 0,
          a_pass: true,
          b_pass: false,
          change: "regressed",
        },
      ],
      queries_only_in_a: [],
      queries_only_in_b: [],
    },
  ],
};

describe("renderDiffMarkdown", () => {
  it("writes the header, the whole skill's change, the eval table, the one-sided evals and the moved queries", () => {
    expect(renderDiffMarkdown(single)).toBe(
      [
        "# Diff",
        "",
        "- A: /ws/csv-summary-workspace/iteration-1",
        "- B: /ws/csv-summary-workspace/iteration-2",
        "- Effect floor: ±0.05 (a smaller move is reported as unchanged)",
        "- Regressions: 2",
        "",
        "**The skill over all evals:** inconclusive (~12 runs a side would decide) — -0.12 (95% CI -0.30 to +0.05) at a floor of ±0.05.",
        "",
        "| Eval | A with_skill (runs) | B with_skill (runs) | B − A | Change |",
        "|---|---|---|---|---|",
        "| 1 (csv summary) | 100% (3) | 50% (3) | -0.50 (95% CI -0.83 to -0.17) | regressed |",
        "| 2 | 75% (2) | 75% (2) | +0.00 (90% CI +0.00 to +0.00) | unchanged |",
        "| edge (pipes \\| and newlines) | — (0) | 33% (2) | no interval | inconclusive |",
        "| 4 | 50% (2) | 60% (2) | +0.10 (95% CI -0.20 to +0.40) | inconclusive (~9 runs a side would decide) |",
        "",
        "Evals only in A (not compared): 5, old-eval",
        "",
        "Evals only in B (not compared): new-eval, 7",
        "",
        "Trigger queries: 3 compared, 2 changed their verdict or could not be scored.",
        "",
        "| Query | Should trigger | A rate | B rate | Change |",
        "|---|---|---|---|---|",
        '| "summarise this csv" | yes | 100% | 33% | regressed |',
        `| "please summarise \\| the quarterly sales summarise \\| the quarterly sales summaris…" | no | — | 50% | inconclusive |`,
        "",
      ].join("\n"),
    );
  });

  it("gives each agent its section, and leaves out what a part does not have", () => {
    expect(renderDiffMarkdown(agents)).toBe(
      [
        "# Diff",
        "",
        "- A: /ws/iteration-3",
        "- B: /ws/iteration-4",
        "- Effect floor: ±0.10 (a smaller move is reported as unchanged)",
        "- Regressions: 1",
        "",
        "## Agent: claude-code",
        "",
        "**The skill over all evals:** improved — +0.40 (95% CI +0.25 to +0.55) at a floor of ±0.10.",
        "",
        "| Eval | A with_skill (runs) | B with_skill (runs) | B − A | Change |",
        "|---|---|---|---|---|",
        "| 1 | 50% (2) | 90% (2) | +0.40 (95% CI +0.25 to +0.55) | improved |",
        "",
        "Trigger queries: 1 compared, 0 changed their verdict or could not be scored.",
        "",
        "## Agent: codex",
        "",
        "Trigger queries: 1 compared, 1 changed their verdict or could not be scored.",
        "",
        "| Query | Should trigger | A rate | B rate | Change |",
        "|---|---|---|---|---|",
        '| "csv please" | yes | 67% | 0% | regressed |',
        "",
      ].join("\n"),
    );
  });

  it("writes only the header for iterations with nothing to compare", () => {
    const empty: DiffReport = { ...agents, regressions: 0, parts: [{ ...agents.parts[1]!, queries: [] }] };
    expect(renderDiffMarkdown(empty)).toBe(
      [
        "# Diff",
        "",
        "- A: /ws/iteration-3",
        "- B: /ws/iteration-4",
        "- Effect floor: ±0.10 (a smaller move is reported as unchanged)",
        "- Regressions: 0",
        "",
        "## Agent: codex",
        "",
      ].join("\n"),
    );
  });

  it("says inconclusive alone for an overall change no number of runs is likely to decide", () => {
    const part = single.parts[0]!;
    const report: DiffReport = {
      ...single,
      parts: [
        {
          ...part,
          overall: { difference: null, change: "inconclusive" },
          evals: [],
          only_in_a: [],
          only_in_b: [],
          queries: [],
        },
      ],
    };
    expect(renderDiffMarkdown(report).split("\n").slice(7)).toEqual([
      "**The skill over all evals:** inconclusive — no interval at a floor of ±0.05.",
      "",
    ]);
  });

  it("shows a runs estimate only for an inconclusive change", () => {
    const part = single.parts[0]!;
    const report: DiffReport = {
      ...single,
      parts: [{ ...part, overall: { ...part.overall!, change: "regressed" }, evals: [], queries: [] }],
    };
    expect(renderDiffMarkdown(report).split("\n")[7]).toBe(
      "**The skill over all evals:** regressed — -0.12 (95% CI -0.30 to +0.05) at a floor of ±0.05.",
    );
  });
});

describe("regressionLines", () => {
  it("lists each regressed eval and query with its interval or rates", () => {
    expect(regressionLines(single)).toEqual([
      "eval 1 regressed: -0.50 (95% CI -0.83 to -0.17)",
      'trigger query "summarise this csv" regressed: rate 100% → 33%',
    ]);
  });

  it("names the agent of each regression in an iteration of several", () => {
    const withEval: DiffReport = {
      ...agents,
      parts: [
        {
          ...agents.parts[0]!,
          evals: [{ ...agents.parts[0]!.evals[0]!, eval_id: "e9", change: "regressed", difference: null }],
        },
        agents.parts[1]!,
      ],
    };
    expect(regressionLines(withEval)).toEqual([
      "eval e9 (claude-code) regressed: no interval",
      'trigger query "csv please" (codex) regressed: rate 67% → 0%',
    ]);
  });

  it("is empty when nothing regressed", () => {
    expect(regressionLines({ ...agents, parts: [agents.parts[0]!] })).toEqual([]);
  });
});
