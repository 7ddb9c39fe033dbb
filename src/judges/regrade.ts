import type { ExpectationGrader } from "../grade/grade-run.js";
import { judgeInputOf } from "../grade/judge-input.js";
import { runPool } from "../run/pool.js";
import type { RunToJudge } from "./collect-runs.js";
import { addVerdict, itemKey, type VerdictTable } from "./verdicts.js";

export interface RegradeOptions {
  runs: readonly RunToJudge[];
  /** Judge id → its grader. */
  graders: ReadonlyMap<string, ExpectationGrader>;
  repeat: number;
  concurrency: number;
  signal?: AbortSignal;
  onGraded?: (info: { judge: string; runId: string; error?: string }) => void;
}

export interface RegradeResult {
  table: VerdictTable;
  costUsd: Map<string, number>;
  errors: Map<string, { run_id: string; error: string }[]>;
}

/** Grades every run again with every judge, `repeat` times each; nothing is written, no agent runs. */
export async function regradeRuns(options: RegradeOptions): Promise<RegradeResult> {
  const table: VerdictTable = new Map();
  const costUsd = new Map<string, number>();
  const errors = new Map<string, { run_id: string; error: string }[]>();
  const jobs = options.runs.flatMap((run) =>
    [...options.graders.keys()].flatMap((judge) =>
      Array.from({ length: options.repeat }, () => ({ run, judge })),
    ),
  );
  await runPool(
    jobs,
    options.concurrency,
    async ({ run, judge }) => {
      const grader = options.graders.get(judge) as ExpectationGrader;
      try {
        const verdicts = await grader(await judgeInputOf(run.runDir, run.task));
        costUsd.set(judge, (costUsd.get(judge) ?? 0) + verdicts.costUsd);
        for (const x of verdicts.expectations)
          addVerdict(table, judge, itemKey(run.runId, x.text), { passed: x.passed, evidence: x.evidence });
        options.onGraded?.({ judge, runId: run.runId });
      } catch (error) {
        if (options.signal?.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        errors.set(judge, [...(errors.get(judge) ?? []), { run_id: run.runId, error: message }]);
        options.onGraded?.({ judge, runId: run.runId, error: message });
      }
    },
    options.signal,
  );
  return { table, costUsd, errors };
}
