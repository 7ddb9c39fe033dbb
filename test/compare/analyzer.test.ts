import { describe, expect, it } from "vitest";
import { type AnalyzedRun, analyzeComparison } from "../../src/compare/analyzer.js";
import type { ComparisonResult } from "../../src/compare/comparator.js";
import type { RunSnapshot } from "../../src/compare/read-run.js";
import type { Comparison } from "../../src/contracts/comparison.js";
import { JudgeError } from "../../src/judge/judge.js";
import { scriptedJudge } from "../judge/scripted-judge.js";
import { analysisAnswer, RecordingJudge } from "./fixtures.js";

function snapshot(name: string, overrides: Partial<RunSnapshot> = {}): RunSnapshot {
  const report = `${name} report`;
  return {
    runDir: `/runs/eval-1/${name}/run-1`,
    configuration: name,
    evalDir: "/runs/eval-1",
    outputs: [{ path: "report.md", content: report, binary: false, bytes: report.length, clipped: false }],
    transcriptTail: `${name}: Read SKILL.md -> Write report.md`,
    finalMessage: "FINAL-MESSAGE-NOT-SHOWN",
    prompt: "Write a report",
    ...overrides,
  };
}

/** alpha ran with a skill and was graded; beta ran without one and left no transcript. */
const alpha: AnalyzedRun = {
  run: snapshot("alpha", {
    grading: {
      expectations: [
        { text: "report.md exists", passed: true, evidence: "found it" },
        { text: "The report names the best quarter", passed: false, evidence: "it does not" },
      ],
      summary: { passed: 1, failed: 1, total: 2, pass_rate: 0.5 },
    },
  }),
  skill: { label: "/skills/alpha", text: "Always put the best quarter first.", note: "" },
};
const beta: AnalyzedRun = {
  run: snapshot("beta", { transcriptTail: "" }),
  skill: {
    label: "none (beta)",
    text: undefined,
    note: "This run had no skill: the agent worked on its own.",
  },
};

function rubricSide(score: number) {
  return {
    content: { correctness: score, completeness: score, accuracy: score },
    structure: { organization: score, formatting: score, usability: score },
    content_score: score,
    structure_score: score,
    overall_score: score * 2,
  };
}

const withExpectations: Comparison = {
  winner: "B",
  reasoning: "B names the best quarter.",
  rubric: { A: rubricSide(3), B: rubricSide(4) },
  output_quality: {
    A: { score: 5, strengths: ["short"], weaknesses: ["vague"] },
    B: { score: 8, strengths: ["complete"], weaknesses: [] },
  },
  expectation_results: {
    A: { passed: 0, total: 1, pass_rate: 0 },
    B: { passed: 1, total: 1, pass_rate: 1 },
  },
};

/** alpha was shown as B and won. */
const alphaWonAsB: ComparisonResult = {
  comparison: withExpectations,
  mapping: { A: beta.run.runDir, B: alpha.run.runDir },
  labels: { A: "second", B: "first" },
  winnerRunDir: alpha.run.runDir,
  task: { prompt: "Write a report", expectations: ["report.md exists"] },
  costUsd: 0.01,
  model: "m",
  simulated: false,
};

/** beta was shown as A and won, on an eval without expectations. */
const betaWonAsA: ComparisonResult = {
  comparison: {
    winner: "A",
    reasoning: "A is shorter.",
    rubric: withExpectations.rubric,
    output_quality: withExpectations.output_quality,
  },
  mapping: { A: beta.run.runDir, B: alpha.run.runDir },
  labels: { A: "second", B: "first" },
  winnerRunDir: beta.run.runDir,
  task: { prompt: "Write a report", expectations: [] },
  costUsd: 0.01,
  model: "m",
  simulated: false,
};

function answerShape(winner: "A" | "B", winnerSkill: string, loserSkill: string): object {
  return {
    comparison_summary: {
      winner,
      winner_skill: winnerSkill,
      loser_skill: loserSkill,
      comparator_reasoning: "…",
    },
    winner_strengths: ["…"],
    loser_weaknesses: ["…"],
    instruction_following: { winner: { score: 8, issues: ["…"] }, loser: { score: 5, issues: ["…"] } },
    improvement_suggestions: [
      { priority: "high", category: "instructions", suggestion: "…", expected_impact: "…" },
    ],
    transcript_insights: { winner_execution_pattern: "…", loser_execution_pattern: "…" },
  };
}

const WHAT_TO_DO = [
  "## What to do",
  "",
  "1. Read both skills and find the instructions that made a difference: what the winner's skill said that the",
  "   loser's did not, or said more clearly. A run without a skill shows what the agent does on its own.",
  "2. Read both transcripts: how closely each agent followed its skill, where it improvised, guessed or erred.",
  "3. winner_strengths and loser_weaknesses: specific, each traced to the skill or the execution.",
  "4. instruction_following: for each run a score from 1 to 10 and the concrete issues.",
  "5. improvement_suggestions for the losing skill (or for writing one, if the loser had none), most useful first:",
  "   priority high|medium|low, category one of instructions, tools, examples, error_handling, structure, references, the change, its expected impact.",
  "6. transcript_insights: each run's execution pattern in one line (step -> step -> step).",
  "",
  "## Answer",
  "",
  "One JSON object of this shape:",
  "",
  "```json",
];

describe("analyzeComparison", () => {
  it("shows the analyzer the verdict, both skills, transcripts, gradings and outputs, winner first", async () => {
    const judge = new RecordingJudge(() => analysisAnswer());
    await analyzeComparison({ judge, result: alphaWonAsB, runs: [beta, alpha] });
    const verdict = {
      rubric: withExpectations.rubric,
      output_quality: withExpectations.output_quality,
      expectation_results: withExpectations.expectation_results,
    };
    expect(judge.requests).toHaveLength(1);
    expect(judge.requests[0]?.maxTokens).toBe(4096);
    expect(judge.requests[0]?.prompt).toBe(
      [
        "<skillgym-analyzer>",
        "<winner>B</winner> <winner-skill>/skills/alpha</winner-skill> <loser-skill>none (beta)</loser-skill>",
        "",
        "## The task both runs were given",
        "",
        "```",
        "Write a report",
        "```",
        "",
        "## Expectations the output should meet, in this order (a JSON array)",
        "",
        "<expectations>",
        "[",
        '  "report.md exists"',
        "]",
        "</expectations>",
        "",
        "## The blind comparator's verdict",
        "",
        "Winner: Output B. Reasoning: B names the best quarter.",
        "",
        "```json",
        JSON.stringify(verdict, null, 2),
        "```",
        "",
        "## Winner — Output B (configuration alpha, /runs/eval-1/alpha/run-1)",
        "",
        "### Skill: /skills/alpha",
        "",
        "```markdown",
        "Always put the best quarter first.",
        "```",
        "",
        "### Transcript (its end)",
        "",
        "```markdown",
        "alpha: Read SKILL.md -> Write report.md",
        "```",
        "",
        "### Grading: 1 of 2 expectations passed",
        "",
        "- The report names the best quarter: it does not",
        "",
        "### Outputs",
        "",
        "File `report.md`",
        "",
        "```",
        "alpha report",
        "```",
        "",
        "## Loser — Output A (configuration beta, /runs/eval-1/beta/run-1)",
        "",
        "### Skill: none (beta)",
        "",
        "This run had no skill: the agent worked on its own.",
        "",
        "### Transcript (its end)",
        "",
        "(none)",
        "",
        "### Outputs",
        "",
        "File `report.md`",
        "",
        "```",
        "beta report",
        "```",
        "",
        ...WHAT_TO_DO,
        JSON.stringify(answerShape("B", "/skills/alpha", "none (beta)"), null, 2),
        "```",
      ].join("\n"),
    );
  });

  it("names the winner and the loser by their labels when A won, and leaves absent expectation results out", async () => {
    const judge = new RecordingJudge(() => analysisAnswer());
    await analyzeComparison({ judge, result: betaWonAsA, runs: [alpha, beta] });
    const prompt = judge.requests[0]?.prompt ?? "";
    const lines = prompt.split("\n");
    expect(lines[1]).toBe(
      "<winner>A</winner> <winner-skill>none (beta)</winner-skill> <loser-skill>/skills/alpha</loser-skill>",
    );
    expect(lines.filter((line) => line.startsWith("## Winner") || line.startsWith("## Loser"))).toEqual([
      "## Winner — Output A (configuration beta, /runs/eval-1/beta/run-1)",
      "## Loser — Output B (configuration alpha, /runs/eval-1/alpha/run-1)",
    ]);
    expect(prompt).toContain(
      [
        "Winner: Output A. Reasoning: A is shorter.",
        "",
        "```json",
        JSON.stringify(
          { rubric: withExpectations.rubric, output_quality: withExpectations.output_quality },
          null,
          2,
        ),
        "```",
      ].join("\n"),
    );
    expect(prompt.slice(prompt.indexOf("## What to do"))).toBe(
      [...WHAT_TO_DO, JSON.stringify(answerShape("A", "none (beta)", "/skills/alpha"), null, 2), "```"].join(
        "\n",
      ),
    );
  });

  it("returns the analysis with the winner and skills as they were, whatever the model wrote there", async () => {
    const judge = new RecordingJudge(() => analysisAnswer());
    const result = await analyzeComparison({ judge, result: alphaWonAsB, runs: [alpha, beta] });
    expect(result.analysis.comparison_summary).toEqual({
      winner: "B",
      winner_skill: "/skills/alpha",
      loser_skill: "none (beta)",
      comparator_reasoning: "The winner named the best quarter.",
    });
    expect(result.analysis.winner_strengths).toEqual(["Followed the skill's ordering rule"]);
    expect(result).toMatchObject({ costUsd: 0.01, model: "recording-judge", simulated: false });
  });

  it("says which judge answered and what it cost", async () => {
    const judge = scriptedJudge([{ text: analysisAnswer(), costUsd: 0.5 }]);
    const result = await analyzeComparison({ judge, result: betaWonAsA, runs: [alpha, beta] });
    expect(result).toMatchObject({ costUsd: 0.5, model: "scripted", simulated: true });
    expect(result.analysis.comparison_summary).toEqual({
      winner: "A",
      winner_skill: "none (beta)",
      loser_skill: "/skills/alpha",
      comparator_reasoning: "The winner named the best quarter.",
    });
  });

  it("refuses a tie before asking the judge", async () => {
    const judge = new RecordingJudge(() => analysisAnswer());
    const tie: ComparisonResult = {
      ...alphaWonAsB,
      comparison: { ...withExpectations, winner: "TIE" },
      winnerRunDir: null,
    };
    await expect(analyzeComparison({ judge, result: tie, runs: [alpha, beta] })).rejects.toThrow(
      new Error("a tied comparison has no winner to analyze"),
    );
    expect(judge.requests).toHaveLength(0);
  });

  it("refuses a comparison whose runs it was not given", async () => {
    const judge = new RecordingJudge(() => analysisAnswer());
    const gamma: AnalyzedRun = { ...beta, run: snapshot("gamma") };
    await expect(analyzeComparison({ judge, result: alphaWonAsB, runs: [alpha, gamma] })).rejects.toThrow(
      new Error("the run /runs/eval-1/beta/run-1 of the comparison was not given to the analyzer"),
    );
    expect(judge.requests).toHaveLength(0);
  });

  it("fails as the analyzer after two unusable answers", async () => {
    const judge = scriptedJudge(["B won.", "B won, really."]);
    const error = await analyzeComparison({ judge, result: alphaWonAsB, runs: [alpha, beta] }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(JudgeError);
    expect((error as JudgeError).message).toBe(
      "the analyzer's answer could not be used after 2 attempts: it contains no JSON object",
    );
  });

  it("passes the signal on to the judge", async () => {
    const judge = scriptedJudge([analysisAnswer()]);
    const controller = new AbortController();
    controller.abort(new Error("stopped by the user"));
    await expect(
      analyzeComparison({ judge, result: alphaWonAsB, runs: [alpha, beta], signal: controller.signal }),
    ).rejects.toThrow("stopped by the user");
    expect(judge.requests).toHaveLength(0);
  });
});
