import { describe, expect, it } from "vitest";
import { History } from "../../src/contracts/history.js";
import { IterationState, targetSkillsOf } from "../../src/contracts/iteration-state.js";
import { historyFromState, renderFinalReport } from "../../src/tune/index.js";
import { issuePaths } from "../contracts/issues.js";

const dims = (n: number) => ({
  clarity: n,
  completeness: n,
  correctness: n,
  effectiveness: n,
  efficiency: n,
});
const evaluation = (score: number, passRate: number, rubric: number) => ({
  score,
  rubric_score: rubric,
  dimensions: dims(rubric),
  expectation_pass_rate: passRate,
  suggestions: ["[high] Add an example"],
  weaknesses: ["No example of the output"],
});

const state = IterationState.parse({
  status: "completed",
  target_skills: ["greeter"],
  skill_paths: ["/home/me/skills/greeter"],
  evals_paths: ["/home/me/skills/greeter/evals/evals.json"],
  execution_mode: "single",
  preset: "quick",
  simulated: true,
  current_iteration: 3,
  max_iterations: 3,
  quality_threshold: 70,
  latest_score: 65,
  best_score: 95,
  current_best: "v1",
  score_trend: [30, 95, 65],
  converged: false,
  error_count: 0,
  max_errors: 3,
  consecutive_errors: 0,
  termination_reason: "quality_threshold_met",
  started_at: "2026-01-15T10:30:00Z",
  updated_at: "2026-01-15T10:50:00Z",
  iterations: [
    {
      round: 1,
      version: "v0",
      parent: null,
      status: "completed",
      evaluation: evaluation(30, 0, 60),
      improvement: {
        changes_file: "iterations/iteration-1/iteration-1-changes.md",
        from_version: "v0",
        target_skills: ["greeter"],
      },
      grading_result: "baseline",
    },
    {
      round: 2,
      version: "v1",
      parent: "v0",
      status: "completed",
      evaluation: evaluation(95, 1, 90),
      improvement: { rolled_back: true, error: "the improver changed nothing", from_version: "v1" },
      grading_result: "won",
    },
    {
      round: 3,
      version: "v2",
      parent: "v1",
      status: "completed",
      evaluation: evaluation(65, 1, 30),
      grading_result: "lost",
    },
  ],
});

describe("iteration-state.json with the seed's names", () => {
  it("takes target_skills, or skill_names for it, but not both disagreeing nor neither", () => {
    expect(targetSkillsOf(state)).toEqual(["greeter"]);
    const { target_skills: _names, ...rest } = state;
    expect(targetSkillsOf(IterationState.parse({ ...rest, skill_names: ["greeter"] }))).toEqual(["greeter"]);
    expect(issuePaths(IterationState, rest)).toEqual(["target_skills"]);
    expect(issuePaths(IterationState, { ...state, skill_names: ["other"] })).toEqual(["skill_names"]);
    expect(
      issuePaths(IterationState, { ...state, chain_order: ["greeter"], execution_mode: "chain" }),
    ).toEqual([]);
  });

  it("accepts budget_exhausted as a termination reason", () => {
    expect(IterationState.safeParse({ ...state, termination_reason: "budget_exhausted" }).success).toBe(true);
  });
});

describe("history.json from the state", () => {
  it("lists each measured version with its result, its parent and the current best", () => {
    const history = History.parse(historyFromState(state));
    expect(history).toEqual({
      started_at: "2026-01-15T10:30:00Z",
      skill_name: "greeter",
      current_best: "v1",
      iterations: [
        {
          version: "v0",
          parent: null,
          expectation_pass_rate: 0,
          grading_result: "baseline",
          is_current_best: false,
          score: 30,
        },
        {
          version: "v1",
          parent: "v0",
          expectation_pass_rate: 1,
          grading_result: "won",
          is_current_best: true,
          score: 95,
        },
        {
          version: "v2",
          parent: "v1",
          expectation_pass_rate: 1,
          grading_result: "lost",
          is_current_best: false,
          score: 65,
        },
      ],
    });
  });

  it("names every skill of a chain, and the original as the best before anything was measured", () => {
    const chain = {
      ...state,
      execution_mode: "chain" as const,
      target_skills: ["outliner", "drafter"],
      current_best: null,
      iterations: [],
    };
    expect(historyFromState(chain)).toMatchObject({
      skill_name: "outliner,drafter",
      current_best: "v0",
      iterations: [],
    });
  });
});

describe("final-report.md", () => {
  const report = renderFinalReport({
    state,
    tuneDir: "/ws/tune-20260115-103000",
    changes: { 1: "- Added an example of card.txt\n" },
    diffs: [
      { name: "greeter", diff: "--- a/greeter/SKILL.md\n+++ b/greeter/SKILL.md\n@@ -1 +1 @@\n-old\n+new\n" },
    ],
    bestDirs: { greeter: "/ws/tune-20260115-103000/iterations/iteration-2/skill-snapshot/greeter" },
  });

  it("shows the score progression per dimension and the result of each version", () => {
    expect(report).toContain("**SIMULATED**");
    expect(report).toContain(
      "| iteration | version | score | pass rate | clarity | completeness | correctness | effectiveness | efficiency | result |",
    );
    expect(report).toContain("| 1 | v0 | 30 | 0% | 60 | 60 | 60 | 60 | 60 | baseline |");
    expect(report).toContain("| 3 | v2 | 65 | 100% | 30 | 30 | 30 | 30 | 30 | lost |");
    expect(report).toContain("Status: completed: the quality threshold was met");
    expect(report).toContain("Best version: v1, score 95/100 (first measured: v0, 30)");
  });

  it("says what changed in each iteration, the diff to the best version, what is left and how to apply", () => {
    expect(report).toContain("### Iteration 1: edited greeter from v0 → v1");
    expect(report).toContain("- Added an example of card.txt");
    expect(report).toContain("Result: v1 won (score 95).");
    expect(report).toContain("Rolled back: the improver changed nothing.");
    expect(report).toContain(
      "```diff\n--- a/greeter/SKILL.md\n+++ b/greeter/SKILL.md\n@@ -1 +1 @@\n-old\n+new\n```",
    );
    expect(report).toContain("## Remaining weaknesses\n\n- No example of the output");
    expect(report).toContain("skillgym tune --resume /ws/tune-20260115-103000 --apply");
    expect(report).toContain("→ `/home/me/skills/greeter`");
  });
});
