// Builders of the records the reporters print: eval runs, trigger runs, trigger results, a pipeline's result.
import type { Benchmark } from "../../../src/contracts/benchmark.js";
import type { RunOutcomeName } from "../../../src/contracts/run-record.js";
import type { TriggerResults } from "../../../src/contracts/trigger-results.js";
import type { PipelineResult } from "../../../src/pipeline/index.js";
import type { RunRecord } from "../../../src/run/index.js";
import type { TriggerRunRecord, TriggerRunSpec } from "../../../src/triggers/index.js";

/** An eval run of `summarise` that succeeded in 12 s for $0.02, unless told otherwise. */
export function evalRecord(
  over: Partial<RunRecord> & { configuration?: "with_skill" | "without_skill"; runNumber?: number } = {},
): RunRecord {
  const { configuration = "with_skill", runNumber = 1, ...rest } = over;
  return {
    spec: {
      eval: {
        id: 1,
        name: "summarise",
        prompt: "do task 1",
        expectations: ["has a table"],
        checks: [],
        files: [],
        numericId: 1,
        fixtures: [],
      },
      evalName: "summarise",
      configuration,
      runNumber,
      runDir: `/ws/iteration-1/eval-1/${configuration}/run-${runNumber}`,
      timeoutMs: 0,
    },
    outcome: "success",
    attempts: 1,
    durationMs: 12_000,
    tokens: 1200,
    costUsd: 0.02,
    skipped: false,
    overheadMs: 0,
    ...rest,
  };
}

export const triggerSpec = (queryIndex: number, runNumber: number): TriggerRunSpec => ({
  queryIndex,
  query: `query ${queryIndex}`,
  shouldTrigger: true,
  runNumber,
  syntheticName: "haiku-sg-0",
  runDir: `/ws/iteration-1/triggers/query-${queryIndex + 1}/run-${runNumber}`,
});

/** A trigger run that triggered the skill for $0.01, unless told otherwise. */
export function triggerRecord(
  spec: TriggerRunSpec,
  over: Partial<TriggerRunRecord> & {
    outcome?: RunOutcomeName;
    cost?: number;
    costSource?: "stream" | "unknown";
  } = {},
): TriggerRunRecord {
  const { cost = 0.01, costSource, ...rest } = over;
  const outcome = over.outcome ?? "success";
  const triggered = over.triggered ?? true;
  return {
    spec,
    queryIndex: spec.queryIndex,
    triggered,
    stolenBy: [],
    outcome,
    attempts: 1,
    durationMs: 10,
    skipped: false,
    record: {
      query: spec.query,
      should_trigger: spec.shouldTrigger,
      synthetic_name: spec.syntheticName,
      triggered,
      skills_loaded: triggered ? ["haiku"] : [],
      stolen_by: [],
      outcome,
      attempts: 1,
      duration_ms: 10,
      ...(costSource === "unknown" ? {} : { cost_usd: cost }),
      ...(costSource ? { cost_source: costSource } : {}),
    },
    ...rest,
  };
}

const summary = {
  total: 4,
  passed: 3,
  failed: 1,
  errors: 0,
  precision: 0.8,
  recall: 0.4,
  f1: 0.53,
  accuracy: 0.65,
};

/** Trigger results of `card` with no query listed and a 3-of-4 summary, unless told otherwise. */
export const triggerResults = (over: Partial<TriggerResults> = {}): TriggerResults => ({
  skill_name: "card",
  description: "d",
  results: [],
  summary,
  ...over,
});

/** What `run` returns for one agent: nothing ran, nothing cost, unless told otherwise. */
export const pipelineResult = (over: Partial<PipelineResult> = {}): PipelineResult => ({
  iterationDir: "/ws/iteration-1",
  reportFile: "/ws/iteration-1/report.html",
  gates: [],
  costUsd: 0,
  savings: { reused: 0, ran: 0, savedUsd: 0 },
  budgetExhausted: false,
  cancelled: false,
  simulated: false,
  wallSeconds: 1,
  ...over,
});

/** An EvalSummary of the given runs in /ws/iteration-1. */
export const evalSummary = (records: RunRecord[], over: Record<string, unknown> = {}) => ({
  iterationDir: "/ws/iteration-1",
  iteration: 1,
  resumed: false,
  simulated: false,
  records,
  cancelled: false,
  ...over,
});

/** A TriggerSummaryResult of the given results and runs in /ws/iteration-1. */
export const triggerSummary = (
  results: TriggerResults,
  records: TriggerRunRecord[] = [],
  over: Record<string, unknown> = {},
) => ({
  iterationDir: "/ws/iteration-1",
  resultsFile: "/ws/iteration-1/triggers/trigger-results.json",
  results,
  records,
  cancelled: false,
  simulated: false,
  ...over,
});

const stat = (mean: number) => ({ mean, stddev: 0, min: mean, max: mean });

/** A benchmark of `card`: with_skill passes 90%, without_skill 30%, no statistics, unless told otherwise. */
export const benchmark = (over: Partial<Benchmark> = {}): Benchmark => ({
  metadata: {
    skill_name: "card",
    timestamp: "2026-11-27T10:00:00Z",
    evals_run: [1],
    runs_per_configuration: 1,
    baseline_configuration: "without_skill",
  },
  runs: [],
  run_summary: {
    with_skill: { pass_rate: stat(0.9), time_seconds: stat(1), tokens: stat(1) },
    without_skill: { pass_rate: stat(0.3), time_seconds: stat(1), tokens: stat(1) },
  },
  ...over,
});
