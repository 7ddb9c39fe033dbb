import { join } from "node:path";
import { readIteration } from "../bench/read-iteration.js";
import type { EvalId } from "../contracts/evals.js";
import { EvalMetadata } from "../contracts/evals.js";
import type { GradedExpectation } from "../contracts/grading.js";
import type { IterationRecord } from "../contracts/run-record.js";
import { loadInputs } from "../run/load-inputs.js";
import { EVAL_METADATA_FILE, evalIdFromDirName, runDirName } from "../runlog/layout.js";
import { runIdOf } from "../runlog/list-runs.js";
import { readRecordIfValid } from "../runlog/read-record.js";

/** A finished run a judge can grade again, with the verdicts of its original grading. */
export interface RunToJudge {
  runId: string;
  runDir: string;
  evalId: EvalId;
  task: { prompt: string; expected_output?: string; expectations: string[] };
  /** grading.json's judge-graded expectations, if it was graded. */
  original: GradedExpectation[];
}

export interface CollectedRuns {
  dir: string;
  runs: RunToJudge[];
  simulated: boolean;
}

const judged = (x: GradedExpectation) => x.source === "judge" || (x.source === undefined && !x.check_type);

// The suite's expected outputs give the judge the same context `grade` gives it; without the suite, none.
async function expectedOutputs(record: IterationRecord | undefined): Promise<Map<string, string>> {
  if (!record?.skill_path) return new Map();
  try {
    const { suite } = await loadInputs({
      skillPath: record.skill_path,
      ...(record.evals_path ? { evalsPath: record.evals_path } : {}),
      ...(record.project_root ? { projectRoot: record.project_root } : {}),
      need: "evals",
    });
    return new Map(
      suite.evals.flatMap((e) => (e.expected_output ? [[String(e.id), e.expected_output] as const] : [])),
    );
  } catch {
    return new Map();
  }
}

/**
 * The iteration's finished runs with expectations for a judge, read from the run folders: the prompt from
 * eval_metadata.json, the expectations the original grade gave the judge (else eval_metadata's assertions).
 */
export async function collectRunsToJudge(iterationDir: string): Promise<CollectedRuns> {
  const data = await readIteration(iterationDir);
  const expected = await expectedOutputs(data.record);
  const runs: RunToJudge[] = [];
  for (const evalData of data.evals) {
    const metadata = await readRecordIfValid(
      join(data.dir, evalData.folder, EVAL_METADATA_FILE),
      EvalMetadata,
    );
    if (!metadata) continue;
    const output = expected.get(String(evalIdFromDirName(evalData.folder)));
    for (const run of data.runs.filter((r) => String(r.evalId) === String(evalData.id))) {
      // Graded (so it ran to its end), or finished and not graded yet.
      const finished =
        run.exclusion === undefined || (run.exclusion.kind === "ungraded" && run.outcome === "success");
      if (!finished) continue;
      const original = (run.grading?.expectations ?? []).filter(judged);
      const expectations = run.grading ? original.map((x) => x.text) : metadata.assertions;
      if (expectations.length === 0) continue;
      const id = `${evalData.folder}/${run.configuration}/${runDirName(run.runNumber)}`;
      runs.push({
        runId: runIdOf(id),
        runDir: join(data.dir, id),
        evalId: run.evalId,
        task: { prompt: metadata.prompt, ...(output ? { expected_output: output } : {}), expectations },
        original,
      });
    }
  }
  const simulated = data.record?.simulated === true || data.runs.some((r) => r.simulated === true);
  return { dir: data.dir, runs, simulated };
}
