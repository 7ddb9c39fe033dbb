import { gradeWithJudge } from "../judge/grader.js";
import type { Judge } from "../judge/judge.js";
import type { ExpectationGrader } from "./grade-run.js";

/** The seed grader's method on any judge backend. */
export function judgeGrader(judge: Judge, signal?: AbortSignal): ExpectationGrader {
  return async (input) => {
    const { graded, response } = await gradeWithJudge(
      judge,
      {
        prompt: input.prompt,
        ...(input.expectedOutput ? { expectedOutput: input.expectedOutput } : {}),
        expectations: input.expectations,
        outputs: input.outputs,
        transcript: input.transcript,
      },
      { workspaceDir: input.runDir, ...(signal ? { signal } : {}) },
    );
    return {
      expectations: graded.expectations.map((x) => ({
        text: x.text,
        passed: x.passed,
        evidence: x.evidence,
      })),
      claims: graded.claims,
      user_notes_summary: graded.user_notes_summary,
      ...(graded.eval_feedback ? { eval_feedback: graded.eval_feedback } : {}),
      model: response.model,
      backend: judge.backend,
      costUsd: response.costUsd,
      ...(response.refused ? { refused: response.refused } : {}),
    };
  };
}
