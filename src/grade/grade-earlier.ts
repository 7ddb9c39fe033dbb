import type { EarlierRun } from "../run/execute-run.js";
import { readJsonIfPresent } from "../runlog/atomic-write.js";
import { runPaths } from "../runlog/layout.js";
import { readEvents } from "./grade-iteration.js";
import { type GradeOnFinishOptions, gradeOnFinish } from "./grade-on-finish.js";
import { type ExpectationGrader, gradeRun } from "./grade-run.js";
import { rebuildWorkspace } from "./rebuild.js";

export interface GradeEarlierOptions extends GradeOnFinishOptions {
  /** An earlier run was graded now. */
  onGraded?: (runDir: string) => void;
}

/**
 * Grades, on resume, each run that succeeded earlier but was left without a grading.json (its grading was
 * interrupted or failed), in its workspace rebuilt from the run's inputs and outputs.
 */
export function gradeEarlierRun(
  options: GradeEarlierOptions,
): (earlier: EarlierRun) => Promise<{ judgeCostUsd?: number }> {
  let grader: Promise<ExpectationGrader> | undefined;
  return async ({ spec, skillName, workspace, passEnv, sandbox }) => {
    const somethingToGrade = spec.eval.expectations.length > 0 || spec.eval.checks.length > 0;
    if (!somethingToGrade || options.signal?.aborted) return {};
    if ((await readJsonIfPresent(runPaths(spec.runDir).grading)) !== undefined) return {};
    options.reporter?.onGradeStart?.(spec);
    try {
      if (spec.eval.expectations.length > 0) grader ??= options.createGrader();
      // Awaited before the rebuild: a judge that cannot be made must not reject unhandled meanwhile (Node exits on it).
      const judge = grader ? await grader : undefined;
      const changes = await rebuildWorkspace(spec.runDir, workspace);
      const graded = await gradeRun({
        runDir: spec.runDir,
        eval: spec.eval,
        skillName,
        workspaceDir: workspace.dir,
        events: await readEvents(spec.runDir),
        changes,
        commandTimeoutMs: options.commandTimeoutMs ?? 120_000,
        ...(passEnv ? { passEnv } : {}),
        ...(sandbox ? { sandbox } : {}),
        ...(judge ? { grader: judge } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      options.onGraded?.(spec.runDir);
      options.reporter?.onGradeEnd?.(spec, { judgeCostUsd: graded.judgeCostUsd, failed: false });
      return { judgeCostUsd: graded.judgeCostUsd };
    } catch (error) {
      options.reporter?.onGradeEnd?.(spec, { failed: true });
      if (!options.signal?.aborted) options.onError?.(spec.runDir, error);
      return {};
    }
  };
}

/** The grading hooks of an eval run: each run as it finishes, and on resume each earlier run left ungraded. */
export function gradingHooks(options: GradeEarlierOptions) {
  return { afterRun: gradeOnFinish(options), afterEarlierRun: gradeEarlierRun(options) };
}
