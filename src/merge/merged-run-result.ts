import { join } from "node:path";
import type { Benchmark } from "../contracts/benchmark.js";
import { EvalCase, EvalMetadata } from "../contracts/evals.js";
import { Grading } from "../contracts/grading.js";
import { RunStatus, TriggerRun } from "../contracts/run-record.js";
import type { RateLimits } from "../contracts/shard.js";
import { ReusedFrom } from "../contracts/store-entry.js";
import { Timing } from "../contracts/timing.js";
import type { TriggerResults } from "../contracts/trigger-results.js";
import { type PipelineResult, savingsOf } from "../pipeline/index.js";
import type { RunSpec } from "../run/plan.js";
import type { RunRecord } from "../run/run-record.js";
import { readJsonIfPresent } from "../runlog/atomic-write.js";
import { EVAL_METADATA_FILE, runPaths, TRIGGERS_DIR } from "../runlog/layout.js";
import { listRuns, type RunRef, triggerRunFolders } from "../runlog/list-runs.js";
import { readRecordIfValid } from "../runlog/read-record.js";
import type { TriggerRunRecord } from "../triggers/index.js";

const reusedFrom = (record: unknown) => {
  const parsed = ReusedFrom.safeParse((record as { reused_from?: unknown } | undefined)?.reused_from);
  return parsed.success ? { reusedFrom: parsed.data } : {};
};

// The eval a run folder ran, from the eval_metadata.json beside it (its prompt and assertions).
async function evalSpec(dir: string, ref: RunRef): Promise<RunSpec> {
  const metadata = await readRecordIfValid(join(dir, ref.evalDir, EVAL_METADATA_FILE), EvalMetadata);
  const id = ref.evalDir.slice("eval-".length);
  const name = metadata?.eval_name ?? ref.evalDir;
  const evalCase = EvalCase.parse({
    id,
    name,
    prompt: metadata?.prompt || "(unknown)",
    expectations: metadata?.assertions ?? [],
  });
  return {
    eval: {
      ...evalCase,
      numericId: typeof metadata?.eval_id === "number" ? metadata.eval_id : 0,
      fixtures: [],
    },
    evalName: name,
    configuration: ref.configuration as RunSpec["configuration"],
    runNumber: ref.runNumber,
    runDir: join(dir, ref.id),
    timeoutMs: 0,
  };
}

/** An eval run read back from its folder as the executor reported it; a folder without timing.json was cut off. */
async function evalRunRecord(dir: string, ref: RunRef): Promise<RunRecord> {
  const paths = runPaths(join(dir, ref.id));
  const [timing, status, grading, raw] = await Promise.all([
    readRecordIfValid(paths.timing, Timing),
    readRecordIfValid(paths.timing, RunStatus),
    readRecordIfValid(paths.grading, Grading),
    readJsonIfPresent(paths.timing),
  ]);
  const judge = grading?.judge_cost_usd;
  return {
    spec: await evalSpec(dir, ref),
    outcome: status?.outcome ?? "cancelled",
    ...(status?.error ? { error: status.error } : {}),
    attempts: status?.attempts ?? 0,
    durationMs: timing?.duration_ms ?? 0,
    tokens: timing?.total_tokens ?? 0,
    costUsd: timing?.cost_usd ?? 0,
    ...(timing && timing.cost_usd === undefined ? { costUnknown: true } : {}),
    skipped: false,
    overheadMs: 0,
    ...(judge !== undefined ? { judgeCostUsd: judge } : {}),
    ...((raw as { contaminated?: unknown } | undefined)?.contaminated === true ? { contaminated: true } : {}),
    ...reusedFrom(raw),
  };
}

/** A trigger run read back from its trigger.json; undefined when the run was cut off before writing one. */
async function triggerRunRecord(triggersDir: string, run: string): Promise<TriggerRunRecord | undefined> {
  const file = join(triggersDir, run, "trigger.json");
  const record = await readRecordIfValid(file, TriggerRun);
  if (!record) return undefined;
  // `run` is a folder triggerRunFolders listed, always query-<i>/run-<k>: the pattern matches it whole.
  // Stryker disable next-line ArrayDeclaration: equivalent, never reached (the pattern always matches)
  const [query, runNumber] = (/query-(\d+)\/run-(\d+)/.exec(run) ?? []).slice(1).map(Number);
  const spec = {
    queryIndex: (query ?? 1) - 1,
    query: record.query,
    shouldTrigger: record.should_trigger,
    runNumber: runNumber ?? 1,
    syntheticName: record.synthetic_name,
    runDir: join(triggersDir, run),
  };
  return {
    spec,
    queryIndex: spec.queryIndex,
    triggered: record.triggered,
    stolenBy: record.stolen_by,
    ...(record.error !== undefined ? { error: record.error } : {}),
    outcome: record.outcome,
    attempts: record.attempts,
    durationMs: record.duration_ms,
    skipped: false,
    record,
    ...reusedFrom(await readJsonIfPresent(file)),
  };
}

export interface MergedRunInput {
  dir: string;
  benchmark?: Benchmark;
  triggers?: TriggerResults;
  simulated: boolean;
  simScript?: string | null;
  agent?: { name: string; version?: string };
  rateLimits: { evals?: RateLimits; triggers?: RateLimits };
  reportFile: string;
  /** The slowest shard's wall time: they ran side by side. */
  wallSeconds: number;
}

/**
 * A merged iteration read back as `run` reports one: every run from its folder, so the terminal summary of a
 * merge says what an unsharded run's would (its gates are the caller's).
 */
export async function mergedRunResult(input: MergedRunInput): Promise<Omit<PipelineResult, "gates">> {
  const { dir } = input;
  const refs = await listRuns(dir);
  const evalRecords = await Promise.all(refs.map((ref) => evalRunRecord(dir, ref)));
  const triggersDir = join(dir, TRIGGERS_DIR);
  // Read even when no shard scored its queries (each was cut short first): their runs still cost what they cost.
  const triggerRecords = (
    await Promise.all((await triggerRunFolders(triggersDir)).map((r) => triggerRunRecord(triggersDir, r)))
  ).flatMap((r) => (r ? [r] : []));
  const cancelled = evalRecords.some((r) => r.outcome === "cancelled");
  const costUsd =
    evalRecords.reduce((sum, r) => sum + r.costUsd + (r.judgeCostUsd ?? 0), 0) +
    triggerRecords.reduce((sum, r) => sum + (r.record.cost_usd ?? 0), 0);
  return {
    iterationDir: dir,
    ...(input.benchmark || refs.length > 0
      ? {
          evals: {
            iterationDir: dir,
            iteration: 0,
            resumed: false,
            simulated: input.simulated,
            ...(input.simScript !== undefined ? { simScript: input.simScript } : {}),
            records: evalRecords,
            cancelled,
            ...(input.rateLimits.evals ? { rateLimits: input.rateLimits.evals } : {}),
          },
        }
      : {}),
    ...(input.triggers
      ? {
          triggers: {
            iterationDir: dir,
            resultsFile: join(triggersDir, "trigger-results.json"),
            results: input.triggers,
            records: triggerRecords,
            cancelled: false,
            simulated: input.simulated,
            ...(input.rateLimits.triggers ? { rateLimits: input.rateLimits.triggers } : {}),
          },
        }
      : {}),
    ...(input.benchmark ? { benchmark: input.benchmark } : {}),
    reportFile: input.reportFile,
    costUsd,
    savings: savingsOf([...evalRecords, ...triggerRecords]),
    budgetExhausted: false,
    cancelled: false,
    simulated: input.simulated,
    ...(input.simScript !== undefined ? { simScript: input.simScript } : {}),
    ...(input.agent ? { agent: input.agent } : {}),
    wallSeconds: input.wallSeconds,
  };
}
