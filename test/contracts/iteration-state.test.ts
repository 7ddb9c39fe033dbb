import { describe, expect, it } from "vitest";
import {
  IterationState,
  rubricDimensions,
  rubricWeights,
  targetSkillsOf,
  tunePresets,
} from "../../src/contracts/index.js";
import { issueMessages, issuePaths } from "./issues.js";

const evaluation = {
  score: 72.5,
  dimensions: { clarity: 80, completeness: 70, correctness: 75, effectiveness: 70, efficiency: 60 },
  expectation_pass_rate: 0.75,
  suggestions: ["Say when to use the script", "Add an example of the output table"],
};

const state = {
  skill_names: ["report-writer"],
  skill_paths: ["/home/me/skills/report-writer"],
  execution_mode: "single",
  preset: "standard",
  current_iteration: 2,
  max_iterations: 5,
  quality_threshold: 80,
  latest_score: 78,
  best_score: 78,
  current_best: "v1",
  score_trend: [72.5, 78],
  converged: false,
  error_count: 0,
  max_errors: 3,
  consecutive_errors: 0,
  status: "running",
  termination_reason: null,
  started_at: "2026-01-15T10:30:00Z",
  updated_at: "2026-01-15T10:50:00Z",
  iterations: [
    {
      round: 1,
      version: "v0",
      status: "completed",
      skill_snapshot: "iteration-1/skill-snapshot",
      execution: { runs: 6, errored_runs: 0, iteration_dir: "iteration-1", cost_usd: 0.42 },
      evaluation,
      improvement: { changes_file: "iteration-1-changes.md", summary: "Clarified step 3" },
      grading_result: "baseline",
    },
    {
      round: 2,
      version: "v1",
      status: "evaluating",
      skill_snapshot: "iteration-2/skill-snapshot",
      execution: { runs: 6, errored_runs: 1 },
      evaluation: { ...evaluation, score: 78 },
      improvement: null,
      grading_result: "won",
    },
  ],
};

describe("iteration-state.json", () => {
  it("parses a running single-skill tune", () => {
    expect(IterationState.parse(state)).toEqual(state);
  });

  it("fills execution, evaluation and improvement of a fresh iteration with null", () => {
    const fresh = {
      ...state,
      current_iteration: 3,
      iterations: [...state.iterations, { round: 3, version: "v2", status: "pending" }],
    };
    expect(IterationState.parse(fresh).iterations[2]).toEqual({
      round: 3,
      version: "v2",
      status: "pending",
      execution: null,
      evaluation: null,
      improvement: null,
    });
  });

  it("parses a chain with per-skill steps and scores", () => {
    const chain = {
      ...state,
      skill_names: ["outline", "draft"],
      skill_paths: undefined,
      execution_mode: "chain",
      chain_order: ["outline", "draft"],
      current_iteration: 1,
      current_best: "v0",
      iterations: [
        {
          ...state.iterations[0],
          execution: {
            runs: 2,
            errored_runs: 0,
            chain: [
              { skill_name: "outline", status: "completed", artifacts_dir: "iteration-1/artifacts/outline" },
              { skill_name: "draft", status: "completed", artifacts_dir: "iteration-1/artifacts/draft" },
            ],
          },
          evaluation: { ...evaluation, skill_scores: { outline: 85, draft: 60 } },
          improvement: { target_skills: ["draft"] },
        },
      ],
    };
    expect(IterationState.safeParse(chain).success).toBe(true);
    const { chain_order: _omitted, ...noOrder } = chain;
    expect(issuePaths(IterationState, noOrder)).toEqual(["chain_order"]);
    expect(issuePaths(IterationState, { ...chain, chain_order: ["outline", "polish"] })).toEqual([
      "chain_order[1]",
    ]);
  });

  it("rejects counters that disagree with the iterations", () => {
    const [first, second] = state.iterations;
    expect(issuePaths(IterationState, { ...state, current_iteration: 3 })).toEqual(["current_iteration"]);
    expect(issuePaths(IterationState, { ...state, iterations: [first, { ...second, round: 3 }] })).toEqual([
      "iterations[1].round",
    ]);
    expect(issuePaths(IterationState, { ...state, current_best: "v7" })).toEqual(["current_best"]);
  });

  it("rejects a completed tune without a reason, and an unknown reason", () => {
    expect(issuePaths(IterationState, { ...state, status: "completed" })).toEqual(["termination_reason"]);
    expect(
      IterationState.safeParse({ ...state, status: "completed", termination_reason: "convergence_detected" })
        .success,
    ).toBe(true);
    expect(issuePaths(IterationState, { ...state, termination_reason: "bored" })).toEqual([
      "termination_reason",
    ]);
  });

  it("rejects scores outside 0–100 and a missing dimension", () => {
    const [first, second] = state.iterations;
    const bad = {
      ...state,
      score_trend: [72.5, 101],
      iterations: [
        first,
        {
          ...second,
          evaluation: { ...evaluation, dimensions: { ...evaluation.dimensions, efficiency: undefined } },
        },
      ],
    };
    expect(issuePaths(IterationState, bad)).toEqual([
      "score_trend[1]",
      "iterations[1].evaluation.dimensions.efficiency",
    ]);
    expect(issueMessages(IterationState, bad)).toHaveLength(2);
  });
});

describe("rubric and presets", () => {
  it("weights every dimension and sums to 1", () => {
    expect(Object.keys(rubricWeights).sort()).toEqual([...rubricDimensions].sort());
    expect(Object.values(rubricWeights).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    expect(rubricWeights).toEqual({
      clarity: 0.2,
      completeness: 0.25,
      correctness: 0.25,
      effectiveness: 0.2,
      efficiency: 0.1,
    });
  });

  it("has the seed's presets", () => {
    expect(tunePresets).toEqual({
      quick: { max_iterations: 3, quality_threshold: 70 },
      standard: { max_iterations: 5, quality_threshold: 80 },
      thorough: { max_iterations: 8, quality_threshold: 90 },
    });
  });
});

describe("iteration-state.json: the skills and the counters", () => {
  const both = (value: unknown) => ({
    paths: issuePaths(IterationState, value),
    messages: issueMessages(IterationState, value),
  });
  const { skill_names: _names, skill_paths: _paths, ...nameless } = state;

  it("requires target_skills or skill_names, and counts no skill paths then", () => {
    expect(both(nameless)).toEqual({ paths: ["target_skills"], messages: ["required"] });
    expect(both({ ...nameless, skill_paths: ["/a", "/b"] })).toEqual({
      paths: ["target_skills"],
      messages: ["required"],
    });
    expect(IterationState.safeParse({ ...nameless, target_skills: ["report-writer"] }).success).toBe(true);
  });

  it("refuses skill_names that differ from target_skills, even by where a name splits", () => {
    expect(IterationState.safeParse({ ...state, target_skills: ["report-writer"] }).success).toBe(true);
    const pair = { ...nameless, target_skills: ["outline", "draft"], skill_names: ["outline", "draft"] };
    expect(IterationState.safeParse(pair).success).toBe(true);
    expect(both({ ...nameless, target_skills: ["ab", "c"], skill_names: ["a", "bc"] })).toEqual({
      paths: ["skill_names"],
      messages: ["differs from target_skills"],
    });
    expect(both({ ...nameless, target_skills: ["a\u0000b"], skill_names: ["a", "b"] })).toEqual({
      paths: ["skill_names"],
      messages: ["differs from target_skills"],
    });
    expect(both({ ...nameless, target_skills: ["a"], skill_names: ["b"] })).toEqual({
      paths: ["skill_names"],
      messages: ["differs from target_skills"],
    });
  });

  it("refuses skill_paths of another length than the skills", () => {
    expect(both({ ...state, skill_paths: ["/a", "/b"] })).toEqual({
      paths: ["skill_paths"],
      messages: ["has 2 entries for 1 target_skills"],
    });
    expect(both({ ...state, skill_paths: [] })).toEqual({
      paths: ["skill_paths"],
      messages: ["has 0 entries for 1 target_skills"],
    });
  });

  it("says what is wrong with a chain's order", () => {
    const chain = {
      ...state,
      skill_names: ["outline", "draft"],
      skill_paths: undefined,
      execution_mode: "chain",
      chain_order: ["outline", "draft"],
    };
    expect(both({ ...chain, chain_order: [] })).toEqual({
      paths: ["chain_order"],
      messages: ["required in chain mode"],
    });
    expect(both({ ...chain, chain_order: undefined })).toEqual({
      paths: ["chain_order"],
      messages: ["required in chain mode"],
    });
    expect(both({ ...chain, chain_order: ["polish", "draft"] })).toEqual({
      paths: ["chain_order[0]"],
      messages: ['"polish" is not one of target_skills'],
    });
  });

  it("says which round an iteration must have and how many are recorded", () => {
    const [first, second] = state.iterations;
    expect(both({ ...state, iterations: [first, { ...second, round: 1 }] })).toEqual({
      paths: ["iterations[1].round"],
      messages: ["must be 2"],
    });
    expect(both({ ...state, current_iteration: 3 })).toEqual({
      paths: ["current_iteration"],
      messages: ["is 3 but 2 iterations are recorded"],
    });
  });

  it("accepts no best version yet, and names a best version no iteration has", () => {
    expect(IterationState.safeParse({ ...state, current_best: null }).success).toBe(true);
    expect(both({ ...state, current_best: "v7" })).toEqual({
      paths: ["current_best"],
      messages: ['"v7" is not the version of any iteration'],
    });
  });

  it("says a completed tune needs its termination reason", () => {
    expect(both({ ...state, status: "completed" })).toEqual({
      paths: ["termination_reason"],
      messages: ["required once completed"],
    });
  });
});

describe("targetSkillsOf", () => {
  it("reads target_skills, else skill_names, else no skills", () => {
    expect(targetSkillsOf({ target_skills: ["a"], skill_names: ["b"] })).toEqual(["a"]);
    expect(targetSkillsOf({ skill_names: ["b"] })).toEqual(["b"]);
    expect(targetSkillsOf({})).toEqual([]);
  });
});
