import { join } from "node:path";
import type { BootstrapOptions } from "../bench/statistics.js";
import { writeBenchmark } from "../bench/write-benchmark.js";
import { type AmbiguousInput, suggestRewordings } from "../compare/reword.js";
import { Feedback } from "../contracts/feedback.js";
import type { GradedExpectation } from "../contracts/grading.js";
import type { JudgesReport } from "../contracts/judges.js";
import { SkillgymError } from "../errors.js";
import type { ExpectationGrader } from "../grade/grade-run.js";
import { judgeGrader } from "../grade/judge-grader.js";
import type { Judge } from "../judge/judge.js";
import { readJsonIfPresent, writeJson } from "../runlog/atomic-write.js";
import { readRecordIfValid } from "../runlog/read-record.js";
import { collectRunsToJudge } from "./collect-runs.js";
import { humanTruth } from "./human-truth.js";
import type { JudgeSpec } from "./judge-spec.js";
import { buildJudgesReport } from "./judges-report.js";
import { positionBiasOf } from "./position-bias.js";
import { regradeRuns } from "./regrade.js";
import { type GradedItem, itemKey } from "./verdicts.js";

export const JUDGES_FILE = "judges.json";

export interface CheckJudgesOptions {
  iterationDir: string;
  judges: readonly { spec: JudgeSpec; judge: Judge }[];
  repeat: number;
  concurrency: number;
  minJudgeAgreement?: number;
  /** Ask the first judge, as the analyzer, for a clearer wording of each ambiguous expectation (default true). */
  reword?: boolean;
  bootstrap?: BootstrapOptions;
  signal?: AbortSignal;
  now?: Date;
  onGraded?: (info: { judge: string; runId: string; error?: string }) => void;
}

export interface CheckedJudges {
  report: JudgesReport;
  path: string;
  /** benchmark.json was beside it and was written again, so its notes name the ambiguous expectations. */
  benchmarkRewritten: boolean;
}

const verdictWord = (passed: boolean) => (passed ? "PASS" : "FAIL");

function rewordInputs(report: JudgesReport): AmbiguousInput[] {
  return report.ambiguous.map((a) => ({
    text: a.text,
    reasons: a.reasons,
    verdicts: report.pairs.flatMap((p) =>
      p.disagreements
        .filter((d) => d.text === a.text && String(d.eval_id) === String(a.eval_id))
        .flatMap((d) => [
          `${p.a} ${verdictWord(d.a.passed)}: ${d.a.evidence}`,
          `${p.b} ${verdictWord(d.b.passed)}: ${d.b.evidence}`,
        ]),
    ),
  }));
}

/** Re-grades an iteration's finished runs with each judge and writes judges.json: how far each can be trusted. */
export async function checkJudges(options: CheckJudgesOptions): Promise<CheckedJudges> {
  if (options.judges.length === 0)
    throw new SkillgymError("USAGE", "no judge to check", { hint: "name judges with --judge a,b" });
  const collected = await collectRunsToJudge(options.iterationDir);
  if (collected.runs.length === 0)
    throw new SkillgymError(
      "BAD_INPUT",
      `${collected.dir} has no finished run with expectations for a judge`,
      {
        hint: "pass an iteration whose evals have expectations, after `skillgym eval` or `run`",
      },
    );
  const graders = new Map<string, ExpectationGrader>(
    options.judges.map(({ spec, judge }) => [spec.id, judgeGrader(judge, options.signal)]),
  );
  const regraded = await regradeRuns({
    runs: collected.runs,
    graders,
    repeat: options.repeat,
    concurrency: options.concurrency,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onGraded ? { onGraded: options.onGraded } : {}),
  });
  if (options.signal?.aborted)
    throw new SkillgymError("CANCELLED", "checking the judges was cancelled", { hint: "run it again" });
  const items = new Map<string, GradedItem>();
  const gradings = new Map<string, GradedExpectation[]>();
  for (const run of collected.runs) {
    gradings.set(run.runId, run.original);
    for (const text of run.task.expectations)
      items.set(itemKey(run.runId, text), { runId: run.runId, evalId: run.evalId, text });
  }
  const feedback = await readRecordIfValid(join(collected.dir, "feedback.json"), Feedback);
  const report = buildJudgesReport({
    iterationDir: collected.dir,
    createdAt: (options.now ?? new Date()).toISOString(),
    judges: options.judges.map(({ spec }) => ({
      id: spec.id,
      backend: spec.backend,
      ...(spec.model ? { model: spec.model } : {}),
      cost_usd: regraded.costUsd.get(spec.id) ?? 0,
      verdicts: [...(regraded.table.get(spec.id)?.values() ?? [])].reduce((n, v) => n + v.length, 0),
      errors: regraded.errors.get(spec.id) ?? [],
    })),
    repeat: options.repeat,
    runs: collected.runs.length,
    simulated: collected.simulated || options.judges.some(({ judge }) => judge.simulated),
    items,
    table: regraded.table,
    truth: humanTruth(feedback, gradings),
    // Either absent is read as not given.
    minJudgeAgreement: options.minJudgeAgreement,
    bootstrap: options.bootstrap,
  });
  const reworder = options.judges[0]?.judge;
  // No ambiguous expectation: suggestRewordings asks nothing and costs nothing.
  if ((options.reword ?? true) && reworder) {
    const { suggestions, costUsd } = await suggestRewordings(reworder, rewordInputs(report), options.signal);
    // The analyzer's call is the first judge's cost.
    report.judges = report.judges.map((j, i) => (i === 0 ? { ...j, cost_usd: j.cost_usd + costUsd } : j));
    report.ambiguous = report.ambiguous.map((a) => {
      const suggestion = suggestions.get(a.text);
      return suggestion ? { ...a, suggested_rewording: suggestion } : a;
    });
  }
  const bias = await positionBiasOf(collected.dir);
  if (bias) report.position_bias = bias;
  const path = join(collected.dir, JUDGES_FILE);
  await writeJson(path, report);
  const hasBenchmark = (await readJsonIfPresent(join(collected.dir, "benchmark.json"))) !== undefined;
  if (hasBenchmark) await writeBenchmark(collected.dir);
  return { report, path, benchmarkRewritten: hasBenchmark };
}
