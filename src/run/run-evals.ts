import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { EvalMetadata } from "../contracts/evals.js";
import type { IterationRecord } from "../contracts/run-record.js";
import type { RateLimits } from "../contracts/shard.js";
import { SkillgymError } from "../errors.js";
import { writeJson } from "../runlog/atomic-write.js";
import { EVAL_METADATA_FILE, evalDirName, ITERATION_FILE } from "../runlog/layout.js";
import { partition, planHash } from "../shard/index.js";
import { hashSkill } from "../skill/index.js";
import { openStore } from "../store/index.js";
import type { ResolvedEval } from "../suite/model.js";
import { createTempRoot } from "../workspace/temp-root.js";
import { type AdaptiveRuns, runAdaptiveRounds } from "./adaptive.js";
import { adaptiveLimit, rateLimitRecord } from "./adaptive-limit.js";
import { evalSetup, stagingContext } from "./eval-setup.js";
import { executeRun, type RunContext, resumeFinishedRun } from "./execute-run.js";
import { chooseIteration, iterationIn } from "./iteration.js";
import { type RunOptions, storeSettings } from "./options.js";
import { planRuns, type RunSpec } from "./plan.js";
import type { RunReporter } from "./reporter.js";
import { defaultRetry } from "./retry.js";
import { withStore } from "./reuse.js";
import type { RunRecord } from "./run-record.js";
import { scheduleRuns } from "./scheduler.js";

export interface EvalOptions extends RunOptions {
  /** "without_skill" (default), "none", or the path of an earlier version of the skill (run as `old_skill`). */
  baseline: string;
  only?: string[];
  resume?: boolean;
  /** Write into this iteration folder (one agent's, in a run of several) instead of choosing one; runs found there are kept. */
  into?: { dir: string; number: number };
  keepWorkspaces?: boolean;
  reporter?: RunReporter;
  afterRun?: RunContext["afterRun"];
  afterEarlierRun?: RunContext["afterEarlierRun"];
  /** More paired runs, up to a cap, for evals whose with/without difference is still uncertain (needs grading). */
  adaptive?: AdaptiveRuns;
}

export interface EvalSummary {
  iterationDir: string;
  iteration: number;
  resumed: boolean;
  simulated: boolean;
  /** Under the simulator: its script file, or null when it had none. */
  simScript?: string | null;
  records: RunRecord[];
  cancelled: boolean;
  /** When 429s lowered the concurrency: how often, and how low. */
  rateLimits?: RateLimits;
}

async function ensureWritable(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    // Stryker disable next-line StringLiteral: equivalent, the probe is removed at once whatever its name
    const probe = await mkdtemp(join(dir, ".write-check-"));
    await rm(probe, {
      recursive: true,
      // Stryker disable next-line BooleanLiteral: equivalent, the probe was just made, so it exists to remove
      force: true,
    });
  } catch (error) {
    throw new SkillgymError(
      "WORKSPACE",
      `cannot write to the workspace ${dir}: ${(error as Error).message}`,
      {
        hint: "choose a writable folder with --workspace",
      },
    );
  }
}

// What defines an eval for the plan hash: its case, not where its files sit on this machine.
function evalIdentity(e: ResolvedEval): unknown {
  const { overlay: _overlay, fixtures, ...evalCase } = e;
  return { ...evalCase, fixtures: fixtures.map((f) => f.target) };
}

/** A run's identity for sharding: its eval, configuration and run number. */
export function runIdentity(spec: RunSpec): string {
  return JSON.stringify(["eval", spec.eval.id, spec.configuration, spec.runNumber]);
}

// Adaptive runs compare graded pairs: without a baseline or a grading there is nothing to decide on.
function checkAdaptive(adaptive: AdaptiveRuns, options: EvalOptions, configurations: number): void {
  if (configurations < 2)
    throw new SkillgymError(
      "USAGE",
      "--adaptive compares with_skill with a baseline; --baseline none has none",
      {
        hint: "use --baseline without_skill or an earlier version, or drop --adaptive",
      },
    );
  if (!options.afterRun)
    throw new SkillgymError("USAGE", "--adaptive decides on the gradings; --no-grade leaves none", {
      hint: "drop --no-grade or --adaptive",
    });
  if (adaptive.maxRuns < options.runs)
    throw new SkillgymError("USAGE", `--max-runs ${adaptive.maxRuns} is below --runs ${options.runs}`, {
      hint: "--max-runs is the most runs an eval gets per configuration, the fixed --runs included",
    });
}

/** Runs every selected eval in each configuration, `runs` times, into the next (or the interrupted) iteration. */
export async function runEvals(options: EvalOptions): Promise<EvalSummary> {
  const setup = await evalSetup(options);
  const { skill, suite, evals, baselineDir, configurations, workspace } = setup;
  if (options.adaptive) checkAdaptive(options.adaptive, options, configurations.length);
  await ensureWritable(workspace);
  const agent = await options.createAgent({ skill, suite });

  const plan: IterationRecord["plan"] = {
    evals: evals.map((e) => e.id),
    configurations,
    runs_per_configuration: options.runs,
    ...(baselineDir ? { baseline_skill_path: baselineDir } : {}),
  };
  const skillHash = await hashSkill(skill.dir);
  const shard = options.shard
    ? {
        index: options.shard.index,
        count: options.shard.count,
        plan_hash: planHash({
          kind: "evals",
          evals: evals.map(evalIdentity),
          configurations,
          runs: options.runs,
          baseline: baselineDir ? await hashSkill(baselineDir) : options.baseline,
          agent: agent.name,
          model: options.model,
          only: options.only,
        }),
      }
    : undefined;
  const iteration = options.into
    ? await iterationIn(options.into)
    : await chooseIteration(
        workspace,
        { skillHash, plan, ...(shard ? { shard } : {}) },
        options.resume ?? false,
      );
  const record: IterationRecord = {
    skill_name: skill.name,
    skill_path: skill.dir,
    skill_hash: skillHash,
    status: "running",
    started_at: new Date().toISOString(),
    simulated: agent.simulated,
    sandbox: agent.sandboxed === true,
    agent: {
      name: agent.name,
      ...(agent.version ? { version: agent.version } : {}),
      ...(agent.mode ? { mode: agent.mode } : {}),
    },
    // Undefined for an agent without a script, which JSON leaves out of iteration.json.
    sim_script: agent.simScript,
    ...(options.model ? { model: options.model } : {}),
    ...(options.projectRoot ? { project_root: resolve(options.projectRoot) } : {}),
    ...(options.evalsPath ? { evals_path: resolve(options.evalsPath) } : {}),
    plan,
    ...(shard ? { shard } : {}),
  };
  await writeJson(join(iteration.dir, ITERATION_FILE), record);
  for (const e of evals) {
    // skill-creator sorts by an integer eval_id; a string id lives on in eval_name (the folder keeps our id).
    const metadata: EvalMetadata & { eval_id: number } = {
      eval_id: e.numericId,
      eval_name: typeof e.id === "string" ? e.id : (e.name ?? `eval-${e.id}`),
      prompt: e.prompt,
      assertions: e.expectations,
    };
    await mkdir(join(iteration.dir, evalDirName(e.id)), { recursive: true });
    await writeJson(join(iteration.dir, evalDirName(e.id), EVAL_METADATA_FILE), metadata);
  }

  const allSpecs = planRuns({
    evals,
    configurations,
    runs: options.runs,
    iterationDir: iteration.dir,
    defaultTimeoutSeconds: options.timeoutSeconds,
  });
  const specs = options.shard ? partition(allSpecs, runIdentity, options.shard) : allSpecs;
  const tempRoot = await createTempRoot("run", { keep: options.keepWorkspaces === true });
  const limit = adaptiveLimit(options.concurrency);
  const context: RunContext = {
    ...stagingContext(setup, options, agent, tempRoot),
    ...(options.signal ? { signal: options.signal } : {}),
    retry: { ...(options.retry ?? defaultRetry), observe: limit.observe },
    ...(options.reporter ? { reporter: options.reporter } : {}),
    ...(options.keepWorkspaces ? { keepWorkspaces: true } : {}),
    ...(suite.env ? { passEnv: suite.env } : {}),
    ...(options.afterRun ? { afterRun: options.afterRun } : {}),
    ...(options.afterEarlierRun ? { afterEarlierRun: options.afterEarlierRun } : {}),
  };
  options.reporter?.onPlan?.({
    iterationDir: iteration.dir,
    total: specs.length,
    skipped: 0,
    resumed: iteration.resumed,
    simulated: agent.simulated,
  });
  const hooks = {
    finishedEarlier: (spec: RunSpec) => resumeFinishedRun(spec, context),
    run: (spec: RunSpec) => executeRun(spec, context),
  };
  const scheduled = options.store
    ? withStore(
        context,
        {
          store: openStore(storeSettings(options.store, workspace)),
          iterationDir: iteration.dir,
          judge: options.store.judge ?? "default",
        },
        hooks,
      )
    : hooks;
  const schedule = (planned: RunSpec[]) =>
    scheduleRuns(planned, {
      concurrency: options.concurrency,
      limit,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.budget ? { budget: options.budget } : {}),
      ...(options.reporter ? { reporter: options.reporter } : {}),
      finishedEarlier: scheduled.finishedEarlier,
      run: scheduled.run,
      costOf: (record) => record.costUsd + (record.judgeCostUsd ?? 0),
    });
  let records: RunRecord[];
  let planned = specs.length;
  try {
    records = await schedule(specs);
    if (options.adaptive) {
      const more = await runAdaptiveRounds({
        adaptive: options.adaptive,
        iterationDir: iteration.dir,
        evals,
        configurations,
        runs: options.runs,
        defaultTimeoutSeconds: options.timeoutSeconds,
        schedule,
        stopped: () => options.signal?.aborted === true || options.budget?.exhausted === true,
        ...(options.reporter?.onMoreRuns ? { onRound: options.reporter.onMoreRuns } : {}),
      });
      records = [...records, ...more.records];
      planned += more.planned;
    }
  } finally {
    if (!options.keepWorkspaces)
      await rm(tempRoot, {
        recursive: true,
        // Stryker disable next-line BooleanLiteral: equivalent, the temp root made above is there to remove
        force: true,
      });
  }
  const cancelled = options.signal?.aborted === true || records.some((r) => r.outcome === "cancelled");
  const complete = !cancelled && records.length === planned;
  const { rate_limits: rateLimits } = rateLimitRecord(limit);
  await writeJson(join(iteration.dir, ITERATION_FILE), {
    ...record,
    status: complete ? "complete" : "interrupted",
    finished_at: new Date().toISOString(),
    ...(rateLimits ? { rate_limits: rateLimits } : {}),
  });
  return {
    iterationDir: iteration.dir,
    iteration: iteration.number,
    resumed: iteration.resumed,
    simulated: agent.simulated,
    ...(agent.simScript !== undefined ? { simScript: agent.simScript } : {}),
    records,
    cancelled,
    ...(rateLimits ? { rateLimits } : {}),
  };
}
