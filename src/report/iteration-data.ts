import { join } from "node:path";
import { z } from "zod";
import {
  Benchmark,
  BenchmarkMetadata,
  type BenchmarkRun,
  BenchmarkStatistics,
  RunSummary,
} from "../contracts/benchmark.js";
import { EvalMetadata } from "../contracts/evals.js";
import { Grading } from "../contracts/grading.js";
import { JudgesReport } from "../contracts/judges.js";
import { AgentsIterationRecord } from "../contracts/matrix.js";
import { IterationRecord, RunStatus, TriggerPlan } from "../contracts/run-record.js";
import { TriggerResults } from "../contracts/trigger-results.js";
import { EVAL_METADATA_FILE, ITERATION_FILE, runPaths, TRIGGERS_DIR } from "../runlog/layout.js";
import { listRuns, type RunRef, runIdOf, triggerRunFolders } from "../runlog/list-runs.js";
import type { JsonCache } from "../runlog/record-cache.js";
import { partialText } from "../shard/index.js";
import { summariseBenchmark } from "./benchmark-view.js";
import { readFeedbackView } from "./feedback-store.js";
import { readHistoryPoints } from "./history-points.js";
import type { IterationRef, ViewTarget } from "./target.js";
import type {
  BenchmarkView,
  HistoryPoint,
  IterationDetail,
  IterationSummary,
  RunEntry,
  WorkspaceView,
} from "./view-model.js";

// What "over time" needs from benchmark.json: the summary without checking every run, so thousands of runs stay cheap.
const BenchmarkHeadline = z.looseObject({
  metadata: BenchmarkMetadata,
  run_summary: RunSummary,
  statistics: BenchmarkStatistics.optional(),
  runs: z.array(z.unknown()),
});

/** Reads an iteration's files once per change; one per server or static build, never shared between them. */
export interface ViewReader {
  target: ViewTarget;
  cache: JsonCache;
  benchmarkViews: WeakMap<Benchmark, BenchmarkView>;
}

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  // Stryker disable next-line ArrayDeclaration: equivalent, every index is filled before the results are returned
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  // Stryker disable next-line MethodExpression: equivalent, a worker beyond the items finds none left; only how many are read at once changes
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function benchmarkKey(evalId: string, configuration: string, runNumber: number): string {
  return `${evalId}\0${configuration}\0${runNumber}`;
}

async function runEntry(
  reader: ViewReader,
  dir: string,
  ref: RunRef,
  evalInfo: { id: string | number | null; name: string },
  fromBenchmark: BenchmarkRun | undefined,
): Promise<RunEntry> {
  const base = {
    id: ref.id,
    run_id: runIdOf(ref.id),
    eval_dir: ref.evalDir,
    eval_id: evalInfo.id,
    eval_name: evalInfo.name,
    configuration: ref.configuration,
    run_number: ref.runNumber,
  };
  if (fromBenchmark) {
    const graded = !fromBenchmark.error;
    return {
      ...base,
      pass_rate: graded ? fromBenchmark.result.pass_rate : null,
      passed: graded ? fromBenchmark.result.passed : null,
      total: graded ? fromBenchmark.result.total : null,
      error: fromBenchmark.error ?? null,
    };
  }
  const runDir = join(dir, ref.id);
  const [grading, status] = await Promise.all([
    reader.cache.value(runPaths(runDir).grading, Grading),
    reader.cache.value(runPaths(runDir).timing, RunStatus),
  ]);
  const failed = status && status.outcome !== "success";
  return {
    ...base,
    pass_rate: grading?.summary.pass_rate ?? null,
    passed: grading?.summary.passed ?? null,
    total: grading?.summary.total ?? null,
    error: failed ? `${status.outcome}${status.error ? `: ${status.error}` : ""}` : null,
  };
}

async function evalInfos(reader: ViewReader, dir: string, runs: RunRef[]) {
  const evalDirs = [...new Set(runs.map((r) => r.evalDir))];
  const infos = await mapLimited(evalDirs, 32, async (evalDir) => {
    const metadata = await reader.cache.value(join(dir, evalDir, EVAL_METADATA_FILE), EvalMetadata);
    return [evalDir, { id: metadata?.eval_id ?? null, name: metadata?.eval_name ?? evalDir }] as const;
  });
  return new Map(infos);
}

// A trigger run's record, read only for whether the result store served it.
const TriggerReuse = z.looseObject({ reused_from: z.looseObject({ iteration: z.string() }).optional() });

/** Per query (`query-<n>`, by n), how many of its trigger runs the result store served. */
async function reusedTriggerRuns(reader: ViewReader, dir: string): Promise<Record<string, number>> {
  const triggersDir = join(dir, TRIGGERS_DIR);
  const runs = await triggerRunFolders(triggersDir);
  const reused = await mapLimited(runs, 32, async (run) => {
    const record = await reader.cache.value(join(triggersDir, run, "trigger.json"), TriggerReuse);
    // triggerRunFolders names each run `query-<n>/run-<k>`.
    return record?.reused_from ? run.slice("query-".length, run.indexOf("/")) : null;
  });
  const counts: Record<string, number> = {};
  for (const query of reused) if (query !== null) counts[query] = (counts[query] ?? 0) + 1;
  return counts;
}

export async function readIterationData(
  reader: ViewReader,
  iteration: IterationRef,
): Promise<IterationDetail> {
  const dir = iteration.dir;
  const [refs, record, benchmark, triggers, feedback, triggerPlan, judges, triggerReused] = await Promise.all(
    [
      listRuns(dir),
      reader.cache.value(join(dir, ITERATION_FILE), IterationRecord),
      reader.cache.value(join(dir, "benchmark.json"), Benchmark),
      reader.cache.value(join(dir, TRIGGERS_DIR, "trigger-results.json"), TriggerResults),
      readFeedbackView(dir),
      reader.cache.value(join(dir, TRIGGERS_DIR, "plan.json"), TriggerPlan),
      reader.cache.value(join(dir, "judges.json"), JudgesReport),
      reusedTriggerRuns(reader, dir),
    ],
  );
  const partial = record?.partial ?? triggerPlan?.partial;
  // benchmark.json names evals by eval_metadata's eval_id, not by folder (a string id's folder differs from its eval_id).
  const benchmarkRuns = new Map(
    (benchmark?.runs ?? []).map((run) => [
      benchmarkKey(String(run.eval_id), run.configuration, run.run_number),
      run,
    ]),
  );
  const infos = await evalInfos(reader, dir, refs);
  const runs = await mapLimited(refs, 32, (ref) => {
    const info = infos.get(ref.evalDir) ?? { id: null, name: ref.evalDir };
    const evalKey = info.id === null ? ref.evalDir.slice("eval-".length) : String(info.id);
    return runEntry(
      reader,
      dir,
      ref,
      info,
      benchmarkRuns.get(benchmarkKey(evalKey, ref.configuration, ref.runNumber)),
    );
  });
  let benchmarkView: BenchmarkView | null = null;
  if (benchmark) {
    benchmarkView = reader.benchmarkViews.get(benchmark) ?? summariseBenchmark(benchmark);
    reader.benchmarkViews.set(benchmark, benchmarkView);
  }
  return {
    number: iteration.number,
    name: iteration.name,
    status: record?.status ?? null,
    simulated: Boolean(record?.simulated ?? benchmark?.metadata.simulated ?? triggers?.simulated),
    sandbox: record?.sandbox ?? triggers?.sandbox ?? null,
    ...(record?.simulated && record.sim_script === null ? { no_sim_script: true } : {}),
    ...(partial ? { partial: partialText(partial) } : {}),
    runs,
    benchmark: benchmarkView,
    triggers: triggers ?? null,
    ...(Object.keys(triggerReused).length > 0 ? { trigger_reused: triggerReused } : {}),
    feedback,
    judges: judges ?? null,
  };
}

async function iterationSummary(
  reader: ViewReader,
  iteration: IterationRef,
  history: Map<string, HistoryPoint>,
): Promise<IterationSummary> {
  const summary = {
    ...(await oneIterationSummary(reader, iteration)),
    history: history.get(iteration.name) ?? null,
  };
  const several = await reader.cache.value(join(iteration.dir, ITERATION_FILE), AgentsIterationRecord);
  if (!several || summary.with_skill_pass_rate !== null) return summary;
  const agents: Record<string, IterationSummary> = {};
  for (const agent of several.agents) {
    agents[agent] = {
      ...(await oneIterationSummary(reader, { ...iteration, dir: join(iteration.dir, agent) })),
      history: history.get(`${iteration.name}/${agent}`) ?? null,
    };
  }
  const runs = Object.values(agents).reduce((sum, it) => sum + it.runs, 0);
  return { ...summary, runs, simulated: Object.values(agents).some((it) => it.simulated), agents };
}

async function oneIterationSummary(
  reader: ViewReader,
  iteration: IterationRef,
): Promise<Omit<IterationSummary, "history">> {
  const dir = iteration.dir;
  const [record, benchmark, triggers, feedback] = await Promise.all([
    reader.cache.value(join(dir, ITERATION_FILE), IterationRecord),
    reader.cache.value(join(dir, "benchmark.json"), BenchmarkHeadline),
    reader.cache.value(join(dir, TRIGGERS_DIR, "trigger-results.json"), TriggerResults),
    readFeedbackView(dir),
  ]);
  const baseline =
    benchmark?.metadata.baseline_configuration ??
    (benchmark?.run_summary.without_skill
      ? "without_skill"
      : benchmark?.run_summary.old_skill
        ? "old_skill"
        : null);
  const plan = record?.plan;
  const runs =
    benchmark?.runs.length ??
    (plan
      ? plan.evals.length * plan.configurations.length * plan.runs_per_configuration
      : (await listRuns(dir)).length);
  return {
    number: iteration.number,
    name: iteration.name,
    status: record?.status ?? null,
    started_at: record?.started_at ?? benchmark?.metadata.timestamp ?? null,
    simulated: Boolean(record?.simulated ?? benchmark?.metadata.simulated ?? triggers?.simulated),
    runs,
    baseline_configuration: baseline,
    with_skill_pass_rate: benchmark?.run_summary.with_skill?.pass_rate.mean ?? null,
    baseline_pass_rate: baseline ? (benchmark?.run_summary[baseline]?.pass_rate.mean ?? null) : null,
    delta_pass_rate: benchmark?.statistics?.delta_pass_rate ?? null,
    trigger_accuracy: triggers?.summary.accuracy ?? null,
    trigger_f1: triggers?.summary.f1 ?? null,
    feedback_status: feedback.status,
  };
}

export async function readWorkspaceView(reader: ViewReader): Promise<WorkspaceView> {
  const { target } = reader;
  const history = await readHistoryPoints(reader.cache, reader.target.root);
  const iterations = await Promise.all(target.all.map((it) => iterationSummary(reader, it, history)));
  let skillName: string | null = null;
  for (const it of [...target.shown].reverse()) {
    const record = await reader.cache.value(join(it.dir, ITERATION_FILE), IterationRecord);
    const benchmark = record
      ? undefined
      : await reader.cache.value(join(it.dir, "benchmark.json"), Benchmark);
    const agents =
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, a record or benchmark always has a skill_name, which comes before the agents record
      record || benchmark
        ? undefined
        : await reader.cache.value(join(it.dir, ITERATION_FILE), AgentsIterationRecord);
    skillName = record?.skill_name ?? benchmark?.metadata.skill_name ?? agents?.skill_name ?? null;
    if (skillName) break;
  }
  return { skill_name: skillName, path: target.path, shown: target.shown.map((it) => it.number), iterations };
}
