import { Analysis, suggestionCategories } from "../contracts/analysis.js";
import type { Side } from "../contracts/comparison.js";
import { judgeMarkers } from "../contracts/judge-markers.js";
import type { Judge } from "../judge/judge.js";
import type { ComparisonResult } from "./comparator.js";
import { askForJson } from "./judge-json.js";
import { normalizeAnalysis } from "./normalize.js";
import { fence, presentOutputs, presentTask } from "./present.js";
import type { RunSnapshot } from "./read-run.js";
import type { SkillSource } from "./skill-source.js";

/** A compared run with the skill it ran with. */
export interface AnalyzedRun {
  run: RunSnapshot;
  skill: SkillSource;
}

export interface AnalyzeComparisonOptions {
  judge: Judge;
  /** A comparison with a winner (a tie has nothing to explain). */
  result: ComparisonResult;
  /** Both runs, in any order; they are matched to the labels by folder. */
  runs: readonly [AnalyzedRun, AnalyzedRun];
  signal?: AbortSignal;
}

export interface AnalysisResult {
  analysis: Analysis;
  costUsd: number;
  model: string;
  simulated: boolean;
}

const SYSTEM = [
  "You are a post-hoc analyzer of a blind A/B comparison of two runs of a coding agent that used Agent Skills.",
  "The comparison is over; you now see which skill (if any) produced each output and how the agent worked.",
  "Explain why the winner won, grounded in the skills' instructions and the transcripts, and say how the losing",
  "skill should change. Answer with exactly one JSON object and nothing else.",
].join(" ");

export async function analyzeComparison(options: AnalyzeComparisonOptions): Promise<AnalysisResult> {
  const { judge, result } = options;
  const winner = result.comparison.winner;
  if (winner === "TIE") throw new Error("a tied comparison has no winner to analyze");
  const loser: Side = winner === "A" ? "B" : "A";
  const winning = runWithLabel(options.runs, result.mapping[winner]);
  const losing = runWithLabel(options.runs, result.mapping[loser]);
  const summary = {
    winner,
    winner_skill: winning.skill.label,
    loser_skill: losing.skill.label,
    comparator_reasoning: result.comparison.reasoning,
  };
  const answer = await askForJson({
    judge,
    role: "analyzer",
    schema: Analysis,
    request: {
      system: SYSTEM,
      prompt: analyzerPrompt(result, winner, winning, losing),
      maxTokens: 4096,
      ...(options.signal ? { signal: options.signal } : {}),
    },
    normalize: (data) => normalizeAnalysis(data, summary),
  });
  return {
    analysis: answer.value,
    costUsd: answer.costUsd,
    model: answer.model,
    simulated: answer.simulated,
  };
}

function runWithLabel(runs: readonly [AnalyzedRun, AnalyzedRun], runDir: string): AnalyzedRun {
  const found = runs.find((r) => r.run.runDir === runDir);
  if (!found) throw new Error(`the run ${runDir} of the comparison was not given to the analyzer`);
  return found;
}

function analyzerPrompt(
  result: ComparisonResult,
  winner: Side,
  winning: AnalyzedRun,
  losing: AnalyzedRun,
): string {
  const loser: Side = winner === "A" ? "B" : "A";
  const { comparison } = result;
  const verdict = {
    rubric: comparison.rubric,
    output_quality: comparison.output_quality,
    ...(comparison.expectation_results ? { expectation_results: comparison.expectation_results } : {}),
  };
  return [
    judgeMarkers.analyzer,
    `<winner>${winner}</winner> <winner-skill>${winning.skill.label}</winner-skill> <loser-skill>${losing.skill.label}</loser-skill>`,
    "",
    presentTask(result.task.prompt, result.task.expectations),
    "## The blind comparator's verdict",
    "",
    `Winner: Output ${winner}. Reasoning: ${comparison.reasoning}`,
    "",
    fence(JSON.stringify(verdict, null, 2), "json"),
    "",
    presentRun(`Winner — Output ${winner}`, winning),
    presentRun(`Loser — Output ${loser}`, losing),
    "## What to do",
    "",
    "1. Read both skills and find the instructions that made a difference: what the winner's skill said that the",
    "   loser's did not, or said more clearly. A run without a skill shows what the agent does on its own.",
    "2. Read both transcripts: how closely each agent followed its skill, where it improvised, guessed or erred.",
    "3. winner_strengths and loser_weaknesses: specific, each traced to the skill or the execution.",
    "4. instruction_following: for each run a score from 1 to 10 and the concrete issues.",
    "5. improvement_suggestions for the losing skill (or for writing one, if the loser had none), most useful first:",
    `   priority high|medium|low, category one of ${suggestionCategories.join(", ")}, the change, its expected impact.`,
    "6. transcript_insights: each run's execution pattern in one line (step -> step -> step).",
    "",
    "## Answer",
    "",
    "One JSON object of this shape:",
    "",
    "```json",
    JSON.stringify(answerShape(winner, winning.skill.label, losing.skill.label), null, 2),
    "```",
  ].join("\n");
}

function presentRun(heading: string, analyzed: AnalyzedRun): string {
  const { run, skill } = analyzed;
  const parts = [`## ${heading} (configuration ${run.configuration}, ${run.runDir})`, ""];
  parts.push(
    `### Skill: ${skill.label}`,
    "",
    skill.text !== undefined ? fence(skill.text, "markdown") : skill.note,
    "",
  );
  parts.push(
    "### Transcript (its end)",
    "",
    run.transcriptTail ? fence(run.transcriptTail, "markdown") : "(none)",
    "",
  );
  if (run.grading) {
    const { passed, total } = run.grading.summary;
    const failed = run.grading.expectations.filter((e) => !e.passed).map((e) => `- ${e.text}: ${e.evidence}`);
    parts.push(`### Grading: ${passed} of ${total} expectations passed`, "", ...failed, "");
  }
  parts.push(presentOutputs(run, "### Outputs", { maxChars: 30_000, finalMessage: false }));
  return parts.join("\n");
}

function answerShape(winner: Side, winnerSkill: string, loserSkill: string): object {
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
