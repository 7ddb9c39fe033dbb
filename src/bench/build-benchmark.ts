import { basename, dirname } from "node:path";
import type {
  BaselineConfiguration,
  Benchmark,
  BenchmarkRun,
  BenchmarkStatistics,
  Configuration,
  ConfigurationSummary,
  DeltaEstimate,
  EffectVerdict,
  PerEvalStatistics,
  RunSummary,
  Stat,
} from "../contracts/benchmark.js";
import { isFlaky, tallyAssertions } from "./assertions.js";
import { disclosureCoverage } from "./disclosure.js";
import { formatSigned } from "./labels.js";
import { evalKey, type IterationData, isGraded, type RunData, timeSeconds, tokensUsed } from "./model.js";
import { benchmarkNotes } from "./notes.js";
import { type PairedDelta, pairedDelta } from "./paired-delta.js";
import { type BootstrapOptions, type DeltaInterval, defaultBootstrap, summarize } from "./statistics.js";
import { DEFAULT_EFFECT_FLOOR, effectVerdict, isRedundant } from "./verdict.js";

export interface BenchmarkOptions {
  /** Seed of the bootstrap; the same seed gives the same interval. Default 1. */
  seed?: number;
  /** Bootstrap resamples; default 10 000. */
  resamples?: number;
  /** Default 0.95. */
  confidence?: number;
  /** Used when iteration.json has no start time. */
  timestamp?: string;
  /** The judge model, when grading.json does not name it. */
  judgeModel?: string;
  /** The smallest lift worth a verdict (a pass-rate difference); default 0.05. */
  effectFloor?: number;
  /** The A/A spread of the workspace's noise.json: a lift smaller than it is not reported either. */
  noiseSpread?: number;
}

export const bootstrapMethod =
  "paired bootstrap: evals resampled, then each eval's runs paired by run number; percentile interval";

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** The configuration with_skill is compared to: the plan's, else the one found (old_skill first: it is rarer). */
export function chooseBaseline(data: IterationData): BaselineConfiguration | undefined {
  const planned = data.record?.plan.configurations.find((c) => c !== "with_skill");
  if (planned === "without_skill" || planned === "old_skill") return planned;
  if (data.configurations.includes("old_skill")) return "old_skill";
  if (data.configurations.includes("without_skill")) return "without_skill";
  return undefined;
}

function stat(values: readonly number[]): Stat {
  const s = summarize(values);
  if (!s) return { mean: 0, stddev: 0, n: 0 };
  return {
    mean: round(s.mean),
    stddev: round(s.stddev),
    min: round(s.min),
    max: round(s.max),
    n: values.length,
  };
}

function defined(values: readonly (number | undefined)[]): number[] {
  return values.filter((v): v is number => v !== undefined);
}

function configurationSummary(runs: readonly RunData[]): ConfigurationSummary | undefined {
  const graded = runs.filter(isGraded);
  if (graded.length === 0) return undefined;
  return {
    pass_rate: stat(graded.map((r) => r.grading.summary.pass_rate)),
    time_seconds: stat(defined(graded.map(timeSeconds))),
    tokens: stat(defined(graded.map(tokensUsed))),
  };
}

function runSummary(data: IterationData, baseline: BaselineConfiguration | undefined): RunSummary {
  const summary: Record<string, ConfigurationSummary> = {};
  for (const configuration of data.configurations) {
    const s = configurationSummary(data.runs.filter((r) => r.configuration === configuration));
    if (s) summary[configuration] = s;
  }
  const withSkill = summary.with_skill;
  const base = baseline ? summary[baseline] : undefined;
  if (!withSkill || !base) return summary;
  return {
    ...summary,
    delta: {
      pass_rate: formatSigned(withSkill.pass_rate.mean - base.pass_rate.mean, 2),
      time_seconds: formatSigned(withSkill.time_seconds.mean - base.time_seconds.mean, 1),
      tokens: formatSigned(withSkill.tokens.mean - base.tokens.mean, 0),
    },
  };
}

function runNotes(run: RunData): string[] {
  const user = run.grading?.user_notes_summary;
  return [
    ...(user?.uncertainties ?? []),
    ...(user?.needs_review ?? []),
    ...(user?.workarounds ?? []),
    ...run.problems,
  ];
}

function benchmarkRun(run: RunData): BenchmarkRun {
  const summary = run.grading?.summary;
  const time = timeSeconds(run);
  const tokens = tokensUsed(run);
  const toolCalls = run.metrics?.total_tool_calls ?? run.grading?.execution_metrics?.total_tool_calls;
  const errors = run.metrics?.errors_encountered ?? run.grading?.execution_metrics?.errors_encountered;
  return {
    eval_id: run.evalId,
    eval_name: run.evalName,
    configuration: run.configuration,
    run_number: run.runNumber,
    result: {
      pass_rate: summary?.pass_rate ?? 0,
      passed: summary?.passed ?? 0,
      failed: summary?.failed ?? 0,
      total: summary?.total ?? 0,
      ...(time !== undefined ? { time_seconds: time } : {}),
      ...(tokens !== undefined ? { tokens } : {}),
      ...(toolCalls !== undefined ? { tool_calls: toolCalls } : {}),
      ...(errors !== undefined ? { errors } : {}),
    },
    expectations: run.grading?.expectations ?? [],
    notes: runNotes(run),
    ...(run.exclusion ? { error: run.exclusion.message } : {}),
  };
}

function estimate(d: DeltaInterval): DeltaEstimate {
  return { ...d };
}

interface VerdictContext {
  floor: number;
  noiseSpread?: number;
  runsPerConfiguration: number;
  summary: RunSummary;
  baseline: BaselineConfiguration;
}

function withNoise(verdict: EffectVerdict, context: VerdictContext): EffectVerdict {
  return context.noiseSpread !== undefined ? { ...verdict, noise_spread: context.noiseSpread } : verdict;
}

function statistics(
  data: IterationData,
  delta: PairedDelta,
  options: BootstrapOptions,
  context: VerdictContext,
): BenchmarkStatistics | undefined {
  if (!delta.overall) return undefined;
  const flakyEvals = new Set(
    tallyAssertions(data.runs)
      .filter((t) => [...t.byConfiguration.values()].some(isFlaky))
      .map((t) => evalKey(t.evalId)),
  );
  const perEval = delta.perEval.map(
    (e): PerEvalStatistics => ({
      eval_id: e.evalId,
      eval_name: e.evalName,
      with_skill_pass_rate: e.withSkillPassRate,
      baseline_pass_rate: e.baselinePassRate,
      delta_pass_rate: e.delta ? estimate(e.delta) : null,
      flaky: flakyEvals.has(evalKey(e.evalId)),
      ...(e.delta
        ? { verdict: withNoise(effectVerdict(e.delta, context.floor, context.runsPerConfiguration), context) }
        : {}),
    }),
  );
  const verdict = withNoise(
    effectVerdict(delta.overall, context.floor, context.runsPerConfiguration),
    context,
  );
  const baselineRate = (context.summary[context.baseline] as ConfigurationSummary | undefined)?.pass_rate
    .mean;
  const redundant = isRedundant({
    overall: verdict.verdict,
    perEval: perEval.flatMap((e) => (e.verdict ? [e.verdict.verdict] : [])),
    baselinePassRate: baselineRate,
  });
  const costs = context.summary.delta;
  return {
    method: bootstrapMethod,
    delta_pass_rate: estimate(delta.overall),
    per_eval: perEval,
    seed: options.seed,
    resamples: options.resamples,
    verdict,
    ...(redundant && baselineRate !== undefined
      ? {
          redundant: {
            baseline_pass_rate: baselineRate,
            ...(costs ? { tokens_delta: costs.tokens, time_seconds_delta: costs.time_seconds } : {}),
          },
        }
      : {}),
  };
}

function distinct(values: readonly (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => Boolean(v)))].sort();
}

function judgeModel(data: IterationData, options: BenchmarkOptions): string {
  const named = distinct([...data.runs.map((r) => r.judgeModel), options.judgeModel]);
  if (named.length > 0) return named.join(", ");
  const judged = data.runs.some((r) => r.grading?.expectations.some((e) => e.source === "judge"));
  return judged ? "unknown" : "none";
}

function skillName(data: IterationData): string {
  if (data.record) return data.record.skill_name;
  const workspace = basename(dirname(data.dir));
  return workspace.endsWith("-workspace") ? workspace.slice(0, -"-workspace".length) : "unknown";
}

/** benchmark.json from an iteration's runs: the seed's shape, plus the baseline, simulation flag and statistics. */
export function buildBenchmark(data: IterationData, options: BenchmarkOptions = {}): Benchmark {
  const bootstrap: BootstrapOptions = {
    seed: options.seed ?? defaultBootstrap.seed,
    resamples: options.resamples ?? defaultBootstrap.resamples,
    confidence: options.confidence ?? defaultBootstrap.confidence,
  };
  const baseline = chooseBaseline(data);
  const delta = baseline ? pairedDelta(data.evals, data.runs, baseline, bootstrap) : undefined;
  const simulated = data.record?.simulated === true || data.runs.some((r) => r.simulated === true);
  const models = distinct(data.runs.map((r) => r.model));
  const judge = judgeModel(data, options);
  const observedRuns = Math.max(1, ...data.runs.map((r) => r.runNumber));
  const runsPerConfiguration = data.record?.plan.runs_per_configuration ?? observedRuns;
  const summary = runSummary(data, baseline);
  const effectFloor = options.effectFloor ?? DEFAULT_EFFECT_FLOOR;
  const noiseSets = options.noiseSpread !== undefined && options.noiseSpread > effectFloor;
  const floor = noiseSets ? options.noiseSpread! : effectFloor;
  const stats =
    delta && baseline
      ? statistics(data, delta, bootstrap, {
          floor,
          ...(noiseSets ? { noiseSpread: floor } : {}),
          runsPerConfiguration,
          summary,
          baseline,
        })
      : undefined;
  const configurations: Configuration[] = data.configurations;
  const disclosure = disclosureCoverage(data);
  return {
    metadata: {
      skill_name: skillName(data),
      ...(data.record?.skill_path ? { skill_path: data.record.skill_path } : {}),
      executor_model: models.length > 0 ? models.join(", ") : "unknown",
      analyzer_model: judge,
      ...(judge !== "none" && judge !== "unknown" ? { judge_model: judge } : {}),
      timestamp: data.record?.started_at ?? options.timestamp ?? "unknown",
      evals_run: data.evals.map((e) => e.id),
      runs_per_configuration: runsPerConfiguration,
      ...(baseline ? { baseline_configuration: baseline } : {}),
      simulated,
    },
    runs: data.runs.map(benchmarkRun),
    run_summary: summary,
    notes: benchmarkNotes({
      runs: data.runs,
      configurations,
      ...(baseline ? { baseline } : {}),
      ...(delta ? { delta } : {}),
      simulated,
      problems: data.problems,
      ...(data.record?.partial ? { partial: data.record.partial } : {}),
      ...(data.ambiguous ? { ambiguous: data.ambiguous } : {}),
    }),
    ...(stats ? { statistics: stats } : {}),
    ...(disclosure.length > 0 ? { disclosure } : {}),
  };
}
