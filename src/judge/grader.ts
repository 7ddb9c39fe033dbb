import { type GraderAnswer, parseGraderAnswer } from "./grader-answer.js";
import { buildGraderPrompt, type GraderInput, type GraderPromptOptions } from "./grader-prompt.js";
import { type Judge, JudgeError, type JudgeResponse } from "./judge.js";

export { type GraderAnswer, parseGraderAnswer } from "./grader-answer.js";
export {
  buildGraderPrompt,
  type GraderInput,
  type GraderOutputFile,
  type GraderPromptOptions,
} from "./grader-prompt.js";

export interface GradeOptions {
  /** Tries in all when the answer cannot be read (default 2: one retry). */
  attempts?: number;
  /** The run's folder (holding outputs/ and transcript.md); an agent judge works in it. */
  workspaceDir?: string;
  signal?: AbortSignal;
  maxTokens?: number;
  prompt?: GraderPromptOptions;
}

/** What grading cost, summed over the attempts. */
export interface GradeResponse {
  model: string;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
  attempts: number;
  costNote?: string;
  /** What the judge tried and was refused, over every attempt. */
  refused?: string[];
}

export interface GradeResult {
  graded: GraderAnswer;
  response: GradeResponse;
}

// An agent judge reads the complete files itself, and its prompt travels on a command line: keep the excerpts short.
const agentJudgeExcerpts: GraderPromptOptions = {
  perFileChars: 4_000,
  totalOutputChars: 12_000,
  transcriptChars: 6_000,
  filesOnDisk: { outputsDir: "outputs", transcriptFile: "transcript.md" },
};

function promptOptions(judge: Judge, options: GradeOptions): GraderPromptOptions {
  if (options.prompt) return options.prompt;
  return judge.readsWorkspace && options.workspaceDir ? agentJudgeExcerpts : {};
}

function addUp(total: GradeResponse | undefined, response: JudgeResponse): GradeResponse {
  const note = total?.costNote ?? response.costNote;
  const refused = [...(total?.refused ?? []), ...(response.refused ?? [])];
  return {
    model: response.model,
    costUsd: (total?.costUsd ?? 0) + response.costUsd,
    inputTokens: (total?.inputTokens ?? 0) + response.inputTokens,
    outputTokens: (total?.outputTokens ?? 0) + response.outputTokens,
    durationMs: (total?.durationMs ?? 0) + response.durationMs,
    attempts: (total?.attempts ?? 0) + 1,
    ...(note ? { costNote: note } : {}),
    ...(refused.length > 0 ? { refused } : {}),
  };
}

/** Asks the judge to grade one run; an unreadable answer is asked again, saying what was wrong with it. */
export async function gradeWithJudge(
  judge: Judge,
  input: GraderInput,
  options: GradeOptions = {},
): Promise<GradeResult> {
  const { system, prompt } = buildGraderPrompt(input, promptOptions(judge, options));
  const attempts = Math.max(1, options.attempts ?? 2);
  let total: GradeResponse | undefined;
  let problem: JudgeError | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const retryNote = problem
      ? `\n\nYour previous answer could not be used: ${problem.message}. Answer again with ONE JSON object only, exactly as asked above.`
      : "";
    const response = await judge.complete({
      system,
      prompt: prompt + retryNote,
      ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
      ...(options.workspaceDir ? { workspaceDir: options.workspaceDir } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    total = addUp(total, response);
    try {
      return { graded: parseGraderAnswer(response.text, input.expectations), response: total };
    } catch (error) {
      if (!(error instanceof JudgeError)) throw error;
      problem = error;
    }
  }
  throw new JudgeError(
    `the judge's answer could not be read after ${attempts} ${attempts === 1 ? "try" : "tries"}: ${problem?.message}`,
    false,
    { costUsd: total?.costUsd ?? 0 },
  );
}
