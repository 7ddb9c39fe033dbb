import { join } from "node:path";
import { readIteration } from "../bench/index.js";
import { isGraded } from "../bench/model.js";
import { EvalMetadata } from "../contracts/evals.js";
import { readJsonIfPresent } from "../runlog/atomic-write.js";
import { EVAL_METADATA_FILE, runDirName, runPaths } from "../runlog/layout.js";
import { mean } from "./score.js";

export interface FailedExpectation {
  text: string;
  evidence: string;
}

/** One eval's with_skill runs, as the evaluator sees them. */
export interface MeasuredEval {
  name: string;
  prompt: string;
  /** Mean over its graded runs; undefined when none was graded. */
  passRate: number | undefined;
  failed: FailedExpectation[];
  /** outputs/ of its first graded run. */
  outputsDir: string | undefined;
}

export interface MeasuredRuns {
  /** Mean of the graded with_skill runs' pass rates; undefined when no run was graded. */
  passRate: number | undefined;
  runs: number;
  graded: number;
  errored: number;
  /** Why runs were left out ("eval-1 run-2: timeout: …"). */
  problems: string[];
  evals: MeasuredEval[];
}

/** Reads the with_skill runs of an eval iteration: the expectation pass rate and what failed, with evidence. */
export async function measureRuns(iterationDir: string): Promise<MeasuredRuns> {
  const data = await readIteration(iterationDir);
  const runs = data.runs.filter((r) => r.configuration === "with_skill");
  const graded = runs.filter(isGraded);
  const evals: MeasuredEval[] = [];
  for (const e of data.evals) {
    const mine = graded.filter((r) => String(r.evalId) === String(e.id));
    const folder = join(iterationDir, e.folder);
    const metadata = EvalMetadata.safeParse(await readJsonIfPresent(join(folder, EVAL_METADATA_FILE)));
    const first = mine[0];
    const failed = mine.flatMap((r) =>
      r.grading.expectations.filter((x) => !x.passed).map((x) => ({ text: x.text, evidence: x.evidence })),
    );
    evals.push({
      name: e.name,
      prompt: metadata.success ? metadata.data.prompt : "",
      passRate: mine.length > 0 ? mean(mine.map((r) => r.grading.summary.pass_rate)) : undefined,
      failed: failed.filter((f, i) => failed.findIndex((g) => g.text === f.text) === i),
      outputsDir: first
        ? runPaths(join(folder, "with_skill", runDirName(first.runNumber))).outputs
        : undefined,
    });
  }
  return {
    passRate: graded.length > 0 ? mean(graded.map((r) => r.grading.summary.pass_rate)) : undefined,
    runs: runs.length,
    graded: graded.length,
    errored: runs.filter((r) => r.exclusion?.kind === "errored").length,
    problems: runs.flatMap((r) =>
      r.exclusion ? [`${r.evalName} run-${r.runNumber}: ${r.exclusion.message}`] : [],
    ),
    evals,
  };
}
