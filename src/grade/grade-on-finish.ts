import type { FinishedRun } from "../run/execute-run.js";
import { type ExpectationGrader, gradeRun } from "./grade-run.js";

export interface GradeOnFinishOptions {
  /** Made the first time a run has expectations to judge. */
  createGrader: () => Promise<ExpectationGrader>;
  commandTimeoutMs?: number;
  signal?: AbortSignal;
  /** A run whose grading failed stays ungraded (no grading.json); `skillgym grade` can try again. */
  onError?: (runDir: string, error: unknown) => void;
}

/** Grades each run as it finishes, while its workspace still exists (checks run in it). */
export function gradeOnFinish(
  options: GradeOnFinishOptions,
): (finished: FinishedRun) => Promise<{ judgeCostUsd?: number }> {
  let grader: Promise<ExpectationGrader> | undefined;
  return async ({ spec, skillName, workspaceDir, result, changes, redactor }) => {
    try {
      if (spec.eval.expectations.length > 0) grader ??= options.createGrader();
      const graded = await gradeRun({
        runDir: spec.runDir,
        eval: spec.eval,
        skillName,
        workspaceDir,
        events: result.events,
        changes,
        redactor,
        commandTimeoutMs: options.commandTimeoutMs ?? 120_000,
        ...(grader ? { grader: await grader } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return { judgeCostUsd: graded.judgeCostUsd };
    } catch (error) {
      if (!options.signal?.aborted) options.onError?.(spec.runDir, error);
      return {};
    }
  };
}
