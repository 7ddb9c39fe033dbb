import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { EvalMetadata } from "../contracts/evals.js";
import type { ConfigurationName, IterationRecord } from "../contracts/run-record.js";
import { SkillgymError } from "../errors.js";
import { errorsOf, formatFinding } from "../findings.js";
import { writeJson } from "../runlog/atomic-write.js";
import { EVAL_METADATA_FILE, evalDirName, ITERATION_FILE } from "../runlog/layout.js";
import { partition, planHash } from "../shard/index.js";
import { hashSkill, loadSkill } from "../skill/index.js";
import { openStore } from "../store/index.js";
import type { ResolvedEval } from "../suite/model.js";
import { createTempRoot } from "../workspace/temp-root.js";
import { adaptiveLimit, rateLimitRecord } from "./adaptive-limit.js";
import { executeRun, type RunContext, resumeFinishedRun } from "./execute-run.js";
import { chooseIteration, defaultWorkspace, iterationIn } from "./iteration.js";
import { type RunOptions, runInputs, storeSettings } from "./options.js";
import { planRuns, type RunSpec, selectEvals, selects } from "./plan.js";
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
}

async function loadBaseline(baseline: string): Promise<string | undefined> {
  if (baseline === "without_skill" || baseline === "none") return undefined;
  const loaded = await loadSkill(baseline);
  if (!loaded.skill || errorsOf(loaded.findings).length > 0) {
    const lines = errorsOf(loaded.findings).map((f) => `  ${formatFinding(f)}`);
    throw new SkillgymError(
      "INVALID_SKILL",
      `the baseline skill ${baseline} is not valid:\n${lines.join("\n")}`,
      {
        hint: "--baseline takes without_skill, none, or the folder of an earlier version of the skill",
      },
    );
  }
  return loaded.skill.dir;
}

function configurationsFor(baseline: string): ConfigurationName[] {
  if (baseline === "none") return ["with_skill"];
  if (baseline === "without_skill") return ["with_skill", "without_skill"];
  return ["with_skill", "old_skill"];
}

async function ensureWritable(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    const probe = await mkdtemp(join(dir, ".write-check-"));
    await rm(probe, { recursive: true, force: true });
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

/** Runs every selected eval in each configuration, `runs` times, into the next (or the interrupted) iteration. */
export async function runEvals(options: EvalOptions): Promise<EvalSummary> {
  const { skill, suite } = await runInputs(options, "evals");
  const baselineDir = await loadBaseline(options.baseline);
  const evals = selectEvals(suite.evals, options.only);
  const unknown = (options.only ?? []).filter((id) => !suite.evals.some((e) => selects(id, e, suite.evals)));
  if (unknown.length > 0) {
    throw new SkillgymError("USAGE", `--only names evals that do not exist: ${unknown.join(", ")}`, {
      hint: `the ids in ${suite.evalsFile} are: ${suite.evals.map((e) => e.id).join(", ")}`,
    });
  }
  if (evals.length === 0) throw new SkillgymError("NO_EVALS", `${suite.evalsFile} has no evals to run`);
  const workspace = resolve(options.workspace ?? defaultWorkspace(skill.dir, skill.name));
  await ensureWritable(workspace);
  const agent = await options.createAgent({ skill, suite });

  const configurations = configurationsFor(options.baseline);
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
    agent: {
      name: agent.name,
      ...(agent.version ? { version: agent.version } : {}),
      ...(agent.mode ? { mode: agent.mode } : {}),
    },
    ...(agent.simScript !== undefined ? { sim_script: agent.simScript } : {}),
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

  const planned = planRuns({
    evals,
    configurations,
    runs: options.runs,
    iterationDir: iteration.dir,
    defaultTimeoutSeconds: options.timeoutSeconds,
  });
  const specs = options.shard ? partition(planned, runIdentity, options.shard) : planned;
  const tempRoot = await createTempRoot("run", { keep: options.keepWorkspaces === true });
  const limit = adaptiveLimit(options.concurrency);
  const context: RunContext = {
    agent,
    skill: { dir: skill.dir, name: skill.name },
    ...(baselineDir ? { baselineSkillDir: baselineDir } : {}),
    ...(options.projectRoot ? { projectRoot: resolve(options.projectRoot) } : {}),
    ...(suite.baseOverlay ? { baseOverlay: suite.baseOverlay } : {}),
    excludePaths: [skill.dir, suite.dir, workspace, ...(baselineDir ? [baselineDir] : [])],
    ...(options.model ? { model: options.model } : {}),
    tempRoot,
    ...(options.signal ? { signal: options.signal } : {}),
    retry: { ...(options.retry ?? defaultRetry), observe: limit.observe },
    ...(options.reporter ? { reporter: options.reporter } : {}),
    ...(options.keepWorkspaces ? { keepWorkspaces: true } : {}),
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
  let records: RunRecord[];
  try {
    records = await scheduleRuns(specs, {
      concurrency: options.concurrency,
      limit,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.budget ? { budget: options.budget } : {}),
      ...(options.reporter ? { reporter: options.reporter } : {}),
      finishedEarlier: scheduled.finishedEarlier,
      run: scheduled.run,
      costOf: (record) => record.costUsd + (record.judgeCostUsd ?? 0),
    });
  } finally {
    if (!options.keepWorkspaces) await rm(tempRoot, { recursive: true, force: true });
  }
  const cancelled = options.signal?.aborted === true || records.some((r) => r.outcome === "cancelled");
  const complete = !cancelled && records.length === specs.length;
  await writeJson(join(iteration.dir, ITERATION_FILE), {
    ...record,
    status: complete ? "complete" : "interrupted",
    finished_at: new Date().toISOString(),
    ...rateLimitRecord(limit),
  });
  return {
    iterationDir: iteration.dir,
    iteration: iteration.number,
    resumed: iteration.resumed,
    simulated: agent.simulated,
    ...(agent.simScript !== undefined ? { simScript: agent.simScript } : {}),
    records,
    cancelled,
  };
}
