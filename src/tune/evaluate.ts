import { readFile, writeFile } from "node:fs/promises";
import type { SkillEvaluation } from "../contracts/iteration-state.js";
import { outputsForJudge } from "../grade/judge-outputs.js";
import type { Judge } from "../judge/judge.js";
import { listSkillFiles } from "../skill/files.js";
import { readEvaluatorAnswer, scoresFromText } from "./evaluator-answer.js";
import { buildEvaluatorPrompt, type EvaluatorInput, type TextFile } from "./evaluator-prompt.js";
import type { MeasuredRuns } from "./measure-runs.js";
import { compositeScore, rubricScore } from "./score.js";

/** The seed's score when the evaluator cannot be run or read: every dimension 50, with a warning. */
export const fallbackRubric = 50;

export interface EvaluateSkillInput {
  judge: Judge;
  skillName: string;
  /** The measured version of the skill. */
  skillDir: string;
  measured: MeasuredRuns & { passRate: number };
  /** The eval iteration's folder; the claude-code judge may read it. */
  iterationDir: string;
  scenario?: string;
  previousScores: number[];
  chain?: EvaluatorInput["chain"];
  /** Where the judge's raw answer is kept when it was not the JSON asked for. */
  rawAnswerFile: string;
  signal?: AbortSignal;
}

export interface EvaluatedSkill {
  evaluation: SkillEvaluation;
  costUsd: number;
  model: string;
  /** The rubric is the fallback, not the judge's: such a version never wins. */
  fallback: boolean;
}

async function skillTextFiles(dir: string): Promise<TextFile[]> {
  const files: TextFile[] = [];
  for (const file of await listSkillFiles(dir)) {
    const bytes = await readFile(file.absolutePath);
    if (bytes.subarray(0, 8000).includes(0)) continue;
    const text = { path: file.path, content: bytes.toString("utf8") };
    // SKILL.md first: it is what the agent reads.
    if (file.path === "SKILL.md") files.unshift(text);
    else files.push(text);
  }
  return files;
}

/** Scores one skill's measured version: the pass rate, plus the judge's 5-dimension rubric (retried once). */
export async function evaluateSkill(input: EvaluateSkillInput): Promise<EvaluatedSkill> {
  const evals = await Promise.all(
    input.measured.evals.map(async (e) => ({
      name: e.name,
      prompt: e.prompt,
      passRate: e.passRate,
      failed: e.failed,
      outputs: e.outputsDir ? await outputsForJudge(e.outputsDir) : [],
    })),
  );
  const { system, prompt } = buildEvaluatorPrompt({
    skillName: input.skillName,
    skillFiles: await skillTextFiles(input.skillDir),
    passRate: input.measured.passRate,
    evals,
    ...(input.scenario ? { scenario: input.scenario } : {}),
    previousScores: input.previousScores,
    ...(input.chain ? { chain: input.chain } : {}),
  });
  let costUsd = 0;
  let model = input.judge.model;
  let lastText: string | undefined;
  const problems: string[] = [];
  for (let attempt = 1; attempt <= 2; attempt++) {
    const asked =
      attempt === 1
        ? prompt
        : `${prompt}\n\nYour previous answer could not be used (${problems.at(-1)}). Answer with exactly one JSON object.`;
    try {
      const response = await input.judge.complete({
        system,
        prompt: asked,
        maxTokens: 4_000,
        workspaceDir: input.iterationDir,
        ...(input.signal ? { signal: input.signal } : {}),
      });
      costUsd += response.costUsd;
      model = response.model;
      lastText = response.text;
      const verdict = readEvaluatorAnswer(response.text);
      if (verdict) {
        const rubric = rubricScore(verdict.dimensions);
        return {
          evaluation: {
            score: compositeScore(input.measured.passRate, rubric),
            rubric_score: rubric,
            expectation_pass_rate: input.measured.passRate,
            ...verdict,
          },
          costUsd,
          model,
          fallback: false,
        };
      }
      problems.push("it is not the JSON object asked for");
    } catch (error) {
      if (input.signal?.aborted) throw error;
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (lastText !== undefined) await writeFile(input.rawAnswerFile, lastText, "utf8");
  const extracted = lastText === undefined ? undefined : scoresFromText(lastText);
  const dimensions = extracted ?? {
    clarity: fallbackRubric,
    completeness: fallbackRubric,
    correctness: fallbackRubric,
    effectiveness: fallbackRubric,
    efficiency: fallbackRubric,
  };
  const rubric = rubricScore(dimensions);
  const warning = extracted
    ? `the evaluator's answer was not JSON; its scores were read from the text (${input.rawAnswerFile})`
    : `the evaluator failed twice (${problems.join("; ")}); the rubric is the fallback ${fallbackRubric}`;
  return {
    evaluation: {
      score: compositeScore(input.measured.passRate, rubric),
      rubric_score: rubric,
      expectation_pass_rate: input.measured.passRate,
      dimensions,
      strengths: [],
      weaknesses: [],
      suggestions: [],
      warning,
    },
    costUsd,
    model,
    fallback: extracted === undefined,
  };
}
