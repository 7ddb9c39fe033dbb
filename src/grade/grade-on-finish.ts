import type { FinishedRun } from "../run/execute-run.js";
import type { RunReporter } from "../run/reporter.js";
import { type ExpectationGrader, gradeRun } from "./grade-run.js";

export interface GradeOnFinishOptions {
  /** Made the first time a run has expectations to judge. */
  createGrader: () => Promise<ExpectationGrader>;
  commandTimeoutMs?: number;
  signal?: AbortSignal;
  /** A run whose grading failed stays ungraded (no grading.json); `skillgym grade` can try again. */
  onError?: (runDir: string, error: unknown) => void;
  /** Told when a run's grading starts and ends, so progress can show grading as its own phase. */
  reporter?: Pick<RunReporter, "onGradeStart" | "onGradeEnd">;
}

/** Grades each run as it finishes, while its workspace still exists (checks run in it). */
export function gradeOnFinish(
  options: GradeOnFinishOptions,
): (finished: FinishedRun) => Promise<{ judgeCostUsd?: number }> {
  let grader: Promise<ExpectationGrader> | undefined;
  return async ({ spec, skillName, workspaceDir, result, changes, redactor, passEnv, sandbox }) => {
    const toGrade = spec.eval.expectations.length > 0 || spec.eval.checks.length > 0;
    if (toGrade) options.reporter?.onGradeStart?.(spec);
    try {
      if (spec.eval.expectations.length > 0) grader ??= options.createGrader();
      const grading = await gradeRun({
        runDir: spec.runDir,
        eval: spec.eval,
        skillName,
        workspaceDir,
        events: result.events,
        changes,
        redactor,
        commandTimeoutMs: options.commandTimeoutMs ?? 120_000,
        ...(passEnv ? { passEnv } : {}),
        ...(sandbox ? { sandbox } : {}),
        ...(grader ? { grader: await grader } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (toGrade)
        options.reporter?.onGradeEnd?.(spec, { judgeCostUsd: grading.judgeCostUsd, failed: false });
      return { judgeCostUsd: grading.judgeCostUsd };
    } catch (error) {
      if (toGrade) options.reporter?.onGradeEnd?.(spec, { failed: true });
      if (!options.signal?.aborted) options.onError?.(spec.runDir, error);
      return {};
    }
  };
}
