import { readTextIfPresent } from "../runlog/atomic-write.js";
import { runPaths } from "../runlog/layout.js";
import { type OutputText, outputsForJudge } from "./judge-outputs.js";

/** What the judge is shown of a run. */
export interface JudgeInput {
  prompt: string;
  expectedOutput?: string;
  expectations: string[];
  outputs: OutputText[];
  transcript: string;
  /** The run folder (outputs/, transcript.md): a judge that reads files itself works there. */
  runDir: string;
}

/** What a judge is shown of a finished run: the task, the expectations, its outputs and transcript. */
export async function judgeInputOf(
  runDir: string,
  task: { prompt: string; expected_output?: string; expectations: string[] },
): Promise<JudgeInput> {
  return {
    prompt: task.prompt,
    ...(task.expected_output ? { expectedOutput: task.expected_output } : {}),
    expectations: task.expectations,
    outputs: await outputsForJudge(runPaths(runDir).outputs),
    transcript: (await readTextIfPresent(runPaths(runDir).transcriptMarkdown)) ?? "",
    runDir,
  };
}
