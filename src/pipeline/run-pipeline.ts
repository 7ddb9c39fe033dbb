import { resolve } from "node:path";
import type { Agent } from "../agents/agent.js";
import { writeBenchmark } from "../bench/index.js";
import type { Benchmark } from "../contracts/benchmark.js";
import type { TriggerResults } from "../contracts/trigger-results.js";
import { gradingHooks } from "../grade/index.js";
import { recordRunHistory } from "../history/index.js";
import { writeStaticReport } from "../report/index.js";
import { createBudget } from "../run/budget.js";
import { defaultWorkspace, type EvalSummary, runEvals } from "../run/index.js";
import { markIterationInterrupted } from "../run/iteration.js";
import { loadInputs } from "../run/load-inputs.js";
import type { Skill } from "../skill/index.js";
import type { Suite } from "../suite/index.js";
import { loadContext } from "../triggers/context.js";
import { checkContextFits } from "../triggers/context-support.js";
import {
  checkConditionSets,
  loadConditionSkills,
  runTriggers,
  type TriggerSummaryResult,
  withSuiteConditions,
} from "../triggers/index.js";
import { type ScreenForecast, screenForecast, screenRefused } from "../triggers/replay/index.js";
import { unitCostsFromHistory } from "./cost-history.js";
import { unitSecondsFromHistory } from "./duration-history.js";
import {
  estimatePlan,
  priced,
  type RunPlanEstimate,
  type UnitSeconds,
  wallSecondsWithStore,
} from "./estimate.js";
import { evaluateGates, type GateResult } from "./gates.js";
import type { PipelineOptions } from "./options.js";
import { type Savings, savingsOf } from "./savings.js";
import { shardShare } from "./shard-share.js";
import { stageSuite } from "./stage.js";
import { forecastPipeline, type StorePlan } from "./store-plan.js";

export interface PipelineResult {
  iterationDir: string;
  evals?: EvalSummary;
  triggers?: TriggerSummaryResult;
  benchmark?: Benchmark;
  /** Absent when no stage ran (cancelled or over budget before the first run): there is nothing to report. */
  reportFile?: string;
  gates: GateResult[];
  costUsd: number;
  /** Runs served by the result store, runs made, and what the served ones saved. */
  savings: Savings;
  budgetExhausted: boolean;
  cancelled: boolean;
  simulated: boolean;
  /** Under the simulator: its script file, or null when it had none. */
  simScript?: string | null;
  /** The agent that ran, when one was started. */
  agent?: { name: string; version?: string };
  /** From the first run to the report, in seconds. */
  wallSeconds: number;
}

function configurationsCount(baseline: string): number {
  return baseline === "none" ? 1 : 2;
}

export interface PipelinePlan extends RunPlanEstimate {
  skill: string;
  /** Runs in waves of `concurrency` at the measured (or default) seconds per run. */
  wallSeconds: number;
  unitSeconds: UnitSeconds;
  /** With `--shard i/n`: the counts above are this shard's share; these are the whole plan's. */
  shard?: { index: number; count: number; agentRuns: number; triggerRuns: number };
  concurrency: number;
  /** What the result store serves, and the cost of the rest. */
  store?: StorePlan;
  /** `--screen replay`: the capture runs, replayed requests and agent runs at most of the trigger runs. */
  screen?: ScreenForecast;
}

/** What `run --dry-run` prints: the runs and judge calls it would make, a rough cost and wall time, starting nothing. */
export async function planPipeline(options: PipelineOptions, simulated: boolean): Promise<PipelinePlan> {
  const inputs = await loadInputs({
    skillPath: options.skillPath,
    ...(options.evalsPath ? { evalsPath: options.evalsPath } : {}),
    ...(options.projectRoot ? { projectRoot: options.projectRoot } : {}),
    need: options.stage ?? "any",
  });
  const { skill } = inputs;
  const suite = stageSuite(inputs.suite, options.stage);
  const workspace = resolve(options.workspace ?? defaultWorkspace(skill.dir, skill.name));
  const unitCosts = simulated
    ? { agentRunUsd: 0, triggerRunUsd: 0, judgeCallUsd: 0 }
    : await unitCostsFromHistory(workspace);
  const whole = estimatePlan({
    suite,
    ...(options.only ? { evalIds: options.only } : {}),
    configurations: configurationsCount(options.baseline),
    runs: options.runs,
    triggerRuns: options.triggerRuns,
    grade: options.grade,
    unitCosts,
  });
  const estimate = options.shard
    ? priced(
        shardShare({
          suite,
          ...(options.only ? { evalIds: options.only } : {}),
          baseline: options.baseline,
          runs: options.runs,
          triggerRuns: options.triggerRuns,
          grade: options.grade,
          shard: options.shard,
        }),
        unitCosts,
      )
    : whole;
  const unitSeconds = await unitSecondsFromHistory(workspace, simulated);
  // An agent that cannot be had (no login) leaves the store's forecast out; the credentials check says why.
  const store = options.store
    ? await forecastPipeline(options, { skill, suite }, unitCosts).catch(() => undefined)
    : undefined;
  const triggerKeys = options.conditions?.clean && options.conditions.real ? 2 : 1;
  const screen =
    options.screen && estimate.triggerRuns > 0
      ? screenForecast({ runs: store?.triggerRuns?.toRun ?? estimate.triggerRuns, keys: triggerKeys })
      : undefined;
  return {
    ...estimate,
    ...(store ? { store } : {}),
    ...(screen ? { screen } : {}),
    ...(options.shard
      ? { shard: { ...options.shard, agentRuns: whole.agentRuns, triggerRuns: whole.triggerRuns } }
      : {}),
    skill: skill.name,
    wallSeconds: wallSecondsWithStore(estimate, store, options.concurrency, unitSeconds),
    unitSeconds,
    concurrency: options.concurrency,
  };
}

/**
 * The main job: artifact evals with a baseline (graded as they finish), trigger evals, the benchmark and a static
 * report in one iteration, then the CI gates.
 */
export async function runPipeline(options: PipelineOptions): Promise<PipelineResult> {
  const started = performance.now();
  const inputs =
    options.inputs ??
    (await loadInputs({
      skillPath: options.skillPath,
      ...(options.evalsPath ? { evalsPath: options.evalsPath } : {}),
      ...(options.projectRoot ? { projectRoot: options.projectRoot } : {}),
      need: options.stage ?? "any",
    }));
  const { skill } = inputs;
  const suite = stageSuite(inputs.suite, options.stage);
  const workspace = resolve(options.workspace ?? defaultWorkspace(skill.dir, skill.name));
  let budget = options.budget;
  if (!budget && options.maxCostUsd !== undefined) {
    budget = createBudget(options.maxCostUsd, (await unitCostsFromHistory(workspace)).agentRunUsd);
  }
  // The trigger part's skills are checked before the evals start, so a bad folder stops the run before any agent.
  const wantsJudge = options.grade && suite.evals.some((e) => e.expectations.length > 0);
  let agent: Promise<Agent> | undefined;
  const createAgent = (inputs: { skill: Skill; suite: Suite }) => {
    agent ??= options.createAgent({ ...inputs, wantsJudge });
    return agent;
  };
  if (suite.triggersFile && suite.triggers.length > 0) {
    const asked = await withSuiteConditions(
      {
        ...(options.projectRoot ? { project: options.projectRoot } : {}),
        ...(options.installed ? { installed: options.installed } : {}),
        ...(options.context ? { context: options.context } : {}),
        ...(options.conditions ? { conditions: options.conditions } : {}),
      },
      suite,
    );
    if (options.conditions) checkConditionSets(options.conditions, asked);
    await loadConditionSkills({ ...options, ...asked }, skill.name);
    // A prior conversation the agent cannot continue stops the run before its evals start an agent.
    if (asked.context && options.conditions?.real !== false) {
      const context = await loadContext(asked.context);
      checkContextFits(await createAgent({ skill, suite }), context);
    }
    // An agent without replay refuses --screen replay before the evals start it (exit 2).
    if (options.screen) screenRefused(await createAgent({ skill, suite }));
  }
  const common = {
    skillPath: options.skillPath,
    ...(options.evalsPath ? { evalsPath: options.evalsPath } : {}),
    ...(options.projectRoot ? { projectRoot: options.projectRoot } : {}),
    inputs: { skill, suite },
    workspace,
    concurrency: options.concurrency,
    ...(options.model ? { model: options.model } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(budget ? { budget } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.shard ? { shard: options.shard } : {}),
    createAgent,
  };

  let evals: EvalSummary | undefined;
  if (suite.evalsFile) {
    evals = await runEvals({
      ...common,
      runs: options.runs,
      baseline: options.baseline,
      timeoutSeconds: options.timeoutSeconds,
      ...(options.outputLimits ? { outputLimits: options.outputLimits } : {}),
      ...(options.only ? { only: options.only } : {}),
      ...(options.adaptive ? { adaptive: options.adaptive } : {}),
      ...(options.resume ? { resume: true } : {}),
      ...(options.into ? { into: options.into } : {}),
      ...(options.keepWorkspaces ? { keepWorkspaces: true } : {}),
      ...(options.reporter ? { reporter: options.reporter } : {}),
      ...(options.grade
        ? gradingHooks({
            createGrader: options.createGrader,
            ...(options.signal ? { signal: options.signal } : {}),
            ...(options.onGradingError ? { onError: options.onGradingError } : {}),
            ...(options.onGraded ? { onGraded: options.onGraded } : {}),
            ...(options.reporter ? { reporter: options.reporter } : {}),
          })
        : {}),
    });
  }
  const stopped = () => options.signal?.aborted === true || budget?.exhausted === true;
  let triggers: TriggerSummaryResult | undefined;
  if (suite.triggersFile && suite.triggers.length > 0 && !stopped()) {
    triggers = await runTriggers({
      ...common,
      ...((evals?.iterationDir ?? options.into?.dir)
        ? { iterationDir: evals?.iterationDir ?? options.into?.dir }
        : {}),
      runs: options.triggerRuns,
      threshold: options.threshold,
      timeoutSeconds: options.triggerTimeoutSeconds,
      // Stryker disable next-line ConditionalExpression: equivalent, runTriggers reads an undefined description as none given (the skill's own)
      ...(options.description !== undefined ? { description: options.description } : {}),
      ...(options.withSkills ? { withSkills: options.withSkills } : {}),
      ...(options.installed ? { installed: options.installed } : {}),
      ...(options.conditions ? { conditions: options.conditions } : {}),
      ...(options.context ? { context: options.context } : {}),
      // Trigger runs start in a copy of the project too, as eval runs do.
      ...(options.projectRoot ? { project: options.projectRoot } : {}),
      ...(options.allRuns ? { allRuns: true } : {}),
      ...(options.screen ? { screen: options.screen } : {}),
      ...(options.triggerReporter ? { reporter: options.triggerReporter } : {}),
    });
  }
  // The evals wrote `complete` for their part; trigger runs cut short (or never begun) leave the iteration unfinished.
  const wantsTriggers = suite.triggersFile !== undefined && suite.triggers.length > 0;
  if (evals && wantsTriggers && (!triggers || triggers.cancelled))
    await markIterationInterrupted(evals.iterationDir);
  const iterationDir = evals?.iterationDir ?? triggers?.iterationDir ?? options.into?.dir ?? workspace;
  const benchmark = evals
    ? (
        await writeBenchmark(iterationDir, {
          // Stryker disable next-line ConditionalExpression: equivalent, the benchmark reads an undefined floor as the default one
          ...(options.effectFloor !== undefined ? { effectFloor: options.effectFloor } : {}),
        })
      ).benchmark
    : undefined;
  // A part of a shared iteration is recorded by its caller; a shard holds only part of the plan.
  if (benchmark && !options.into && !options.shard)
    await recordRunHistory(workspace, [iterationDir], {
      // Stryker disable next-line ConditionalExpression: equivalent, the history reads an undefined floor as the default one
      ...(options.effectFloor !== undefined ? { effectFloor: options.effectFloor } : {}),
    });
  // Nothing ran (cancelled or over budget before the first run): there is no iteration to report on.
  const reportFile = evals || triggers ? await writeStaticReport(iterationDir, skill.name) : undefined;
  const triggerResults: TriggerResults | undefined =
    triggers && !triggers.cancelled ? triggers.results : undefined;
  const costUsd =
    (evals?.records.reduce((sum, r) => sum + r.costUsd + (r.judgeCostUsd ?? 0), 0) ?? 0) +
    (triggers?.records.reduce((sum, r) => sum + (r.record.cost_usd ?? 0), 0) ?? 0);
  const ran = await agent;
  return {
    iterationDir,
    ...(evals ? { evals } : {}),
    ...(triggers ? { triggers } : {}),
    ...(benchmark ? { benchmark } : {}),
    ...(reportFile ? { reportFile } : {}),
    gates: evaluateGates(options.gates, benchmark, triggerResults),
    costUsd,
    savings: savingsOf([...(evals?.records ?? []), ...(triggers?.records ?? [])]),
    budgetExhausted: budget?.exhausted === true,
    cancelled: options.signal?.aborted === true,
    simulated: ran?.simulated ?? false,
    ...(ran?.simScript !== undefined ? { simScript: ran.simScript } : {}),
    ...(ran ? { agent: { name: ran.name, ...(ran.version ? { version: ran.version } : {}) } } : {}),
    wallSeconds: (performance.now() - started) / 1000,
  };
}
