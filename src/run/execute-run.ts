import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { writeActivation } from "../activation/index.js";
import type { Agent, AgentRunResult, RunOutcome } from "../agents/agent.js";
import { totalTokens } from "../agents/events.js";
import { RunStatus } from "../contracts/run-record.js";
import type { Redactor } from "../redact.js";
import { readJsonIfPresent, writeJson } from "../runlog/atomic-write.js";
import { runPaths } from "../runlog/layout.js";
import type { ManifestDiff, OutputLimits } from "../workspace/index.js";
import { type Attempt, type AttemptEnv, type AttemptPlan, runAttempt } from "./attempt.js";
import type { RunSpec } from "./plan.js";
import type { RunReporter } from "./reporter.js";
import type { RetryPolicy } from "./retry.js";
import { runMetrics } from "./run-metrics.js";
import { isFinishedOutcome, type RunRecord } from "./run-record.js";
import { type RunWorkspaceInput, runWorkspacePlan } from "./workspace-plan.js";

export type { RetryPolicy };

/** A run that just ended successfully, with its workspace still on disk (for checks that need it). */
export interface FinishedRun {
  spec: RunSpec;
  skillName: string;
  workspaceDir: string;
  result: AgentRunResult;
  changes: ManifestDiff;
  /** Masks the agent's credentials in whatever is written about the run (grading.json). */
  redactor: Redactor;
  /** Names of skillgym's variables the suite passes to its `command` checks (evals.json `env`). */
  passEnv?: readonly string[];
  /** The run was sandboxed: the bubblewrap its `command` checks run through too. */
  sandbox?: { bwrap: string };
}

/** A run that succeeded in an earlier invocation; its workspace is gone but `workspace` rebuilds it. */
export interface EarlierRun {
  spec: RunSpec;
  skillName: string;
  workspace: RunWorkspaceInput;
  /** Names of skillgym's variables the suite passes to its `command` checks (evals.json `env`). */
  passEnv?: readonly string[];
  /** The run was sandboxed: the bubblewrap its `command` checks run through too. */
  sandbox?: { bwrap: string };
}

export interface RunContext {
  agent: Agent;
  skill: { dir: string; name: string };
  /** The earlier version run as `old_skill`. */
  baselineSkillDir?: string;
  /** Copied into every workspace first, when given. */
  projectRoot?: string;
  baseOverlay?: string;
  /** Absolute paths a project-root copy leaves out (the skill under test, the suite, the skillgym workspace). */
  excludePaths: string[];
  model?: string;
  /** What a run's collected outputs may come to (default DEFAULT_OUTPUT_LIMITS). */
  outputLimits?: OutputLimits;
  tempRoot: string;
  signal?: AbortSignal;
  retry: RetryPolicy;
  reporter?: RunReporter;
  keepWorkspaces?: boolean;
  /** Names of skillgym's variables the suite passes to its `command` checks (evals.json `env`). */
  passEnv?: readonly string[];
  /** Runs while the finished workspace still exists (grading checks that need it). */
  afterRun?: (finished: FinishedRun) => Promise<{ judgeCostUsd?: number }>;
  /** Runs for each run that succeeded in an earlier invocation (an interrupted grade is finished here). */
  afterEarlierRun?: (earlier: EarlierRun) => Promise<{ judgeCostUsd?: number }>;
}

/** The part of a run's context that decides what its workspace holds (and so its store key). */
export type StagingContext = Pick<
  RunContext,
  | "agent"
  | "skill"
  | "baselineSkillDir"
  | "projectRoot"
  | "baseOverlay"
  | "excludePaths"
  | "model"
  | "outputLimits"
  | "tempRoot"
>;

function slug(spec: RunSpec): string {
  return `${String(spec.eval.id).replace(/[^A-Za-z0-9_-]/g, "_")}-${spec.configuration}-${spec.runNumber}`;
}

/** The outcome of a run already finished in an earlier, interrupted invocation (it is not run again). */
export async function finishedEarlier(spec: RunSpec): Promise<RunOutcome | undefined> {
  const parsed = RunStatus.safeParse(await readJsonIfPresent(runPaths(spec.runDir).timing));
  return parsed.success && isFinishedOutcome(parsed.data.outcome) ? parsed.data.outcome : undefined;
}

export function workspaceInput(spec: RunSpec, ctx: StagingContext, dir: string): RunWorkspaceInput {
  return {
    dir,
    configuration: spec.configuration,
    eval: spec.eval,
    skill: ctx.skill,
    ...(ctx.baselineSkillDir ? { baselineSkillDir: ctx.baselineSkillDir } : {}),
    ...(ctx.projectRoot ? { projectRoot: ctx.projectRoot } : {}),
    ...(ctx.baseOverlay ? { baseOverlay: ctx.baseOverlay } : {}),
    excludePaths: ctx.excludePaths,
    skillsFolder: ctx.agent.skillsFolder,
  };
}

/** Stages a fresh workspace, runs the agent (retrying when the service is busy), and records everything. */
export function executeRun(spec: RunSpec, ctx: RunContext): Promise<RunRecord> {
  const started = Date.now();
  const plan: AttemptPlan = {
    name: slug(spec),
    runNumber: spec.runNumber,
    runDir: spec.runDir,
    workspace: (dir) => runWorkspacePlan(workspaceInput(spec, ctx, dir)),
    prompt: spec.eval.prompt,
    timeoutMs: spec.timeoutMs,
    heading: `${spec.evalName} — ${spec.configuration} — run ${spec.runNumber}`,
    collectOutputs: true,
    ...(ctx.outputLimits ? { outputLimits: ctx.outputLimits } : {}),
    eventLog: true,
    onRetry: (info) => ctx.reporter?.onRunRetry?.(spec, info),
  };
  return runAttempt(plan, attemptEnv(ctx), async (attempt) => {
    const record = await recordRun(spec, ctx, attempt, started);
    const { result, changes, workspaceDir } = attempt;
    if (ctx.afterRun && result && changes && workspaceDir && record.outcome === "success") {
      const graded = await ctx.afterRun({
        spec,
        skillName: ctx.skill.name,
        workspaceDir,
        result,
        changes,
        redactor: ctx.agent.redactor,
        ...(ctx.passEnv ? { passEnv: ctx.passEnv } : {}),
        ...checkSandbox(ctx),
      });
      if (graded.judgeCostUsd !== undefined) record.judgeCostUsd = graded.judgeCostUsd;
    }
    return record;
  });
}

// A sandboxed agent's checks are sandboxed by the same bubblewrap.
function checkSandbox(ctx: RunContext): { sandbox?: { bwrap: string } } {
  return ctx.agent.sandbox ? { sandbox: { bwrap: ctx.agent.sandbox.bwrap } } : {};
}

function attemptEnv(ctx: RunContext): AttemptEnv {
  return {
    agent: ctx.agent,
    ...(ctx.model ? { model: ctx.model } : {}),
    tempRoot: ctx.tempRoot,
    retry: ctx.retry,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.keepWorkspaces ? { keepWorkspace: true } : {}),
  };
}

/** The record of a run that finished in an earlier, interrupted invocation; it is not run again. */
export async function resumeFinishedRun(spec: RunSpec, ctx: RunContext): Promise<RunRecord | undefined> {
  const earlier = await finishedEarlier(spec);
  return earlier ? skipFinished(spec, ctx, earlier) : undefined;
}

// A run finished earlier is not run again and keeps its outcome (a timeout stays an error in the counts); one that
// succeeded goes to `afterEarlierRun` (which may grade it).
async function skipFinished(spec: RunSpec, ctx: RunContext, outcome: RunOutcome): Promise<RunRecord> {
  const record: RunRecord = {
    spec,
    outcome,
    attempts: 0,
    durationMs: 0,
    tokens: 0,
    costUsd: 0,
    skipped: true,
    overheadMs: 0,
  };
  if (outcome !== "success" || !ctx.afterEarlierRun) return record;
  const dir = join(ctx.tempRoot, `${slug(spec)}-earlier`);
  try {
    const graded = await ctx.afterEarlierRun({
      spec,
      skillName: ctx.skill.name,
      workspace: workspaceInput(spec, ctx, dir),
      ...(ctx.passEnv ? { passEnv: ctx.passEnv } : {}),
      ...checkSandbox(ctx),
    });
    if (graded.judgeCostUsd !== undefined) record.judgeCostUsd = graded.judgeCostUsd;
  } finally {
    if (!ctx.keepWorkspaces) await rm(dir, { recursive: true, force: true });
  }
  return record;
}

// metrics.json and timing.json: what the run did and what it cost, beside the transcript the attempt wrote.
async function recordRun(
  spec: RunSpec,
  ctx: RunContext,
  attempt: Attempt,
  started: number,
): Promise<RunRecord> {
  const { result, changes } = attempt;
  const outcome = attempt.outcome;
  const agentError = result && result.outcome !== "success" ? result.message : undefined;
  const reasons = [agentError, attempt.collectError].filter((reason) => reason !== undefined);
  // No reason joins to "", which the records below leave out as they do no error.
  const error = attempt.setupError ?? reasons.join("; ");
  const files = {
    created: changes?.created ?? [],
    modified: changes?.modified ?? [],
    deleted: changes?.deleted ?? [],
    chars: attempt.outputChars,
  };
  const events = result?.events ?? [];
  if (!result) await writeFile(runPaths(spec.runDir).transcript, "", "utf8");
  await writeJson(
    runPaths(spec.runDir).metrics,
    runMetrics(events, files, attempt.transcriptMarkdown.length, outcome !== "success"),
  );

  const activation = await writeActivation(spec.runDir, events, {
    skill: ctx.skill.name,
    skillDir:
      spec.configuration === "old_skill" && ctx.baselineSkillDir ? ctx.baselineSkillDir : ctx.skill.dir,
    configuration: spec.configuration,
    agent: ctx.agent.name,
    staged: spec.configuration === "without_skill" ? {} : { [ctx.skill.name]: ctx.skill.name },
    skillFolders: [ctx.skill.dir],
    ...(result?.sandbox ? { sandbox: result.sandbox } : {}),
  });

  const usage = result?.result?.usage;
  const proc = result?.process;
  const seconds = (proc?.durationMs ?? 0) / 1000;
  const tokens = totalTokens(usage);
  // The simulator charges nothing, whatever price Claude Code computes for the tokens it counted; a result line
  // without a cost (a model the price table does not know) leaves it unknown, never a made-up 0.
  const cost = ctx.agent.simulated || !result?.result ? 0 : result.result.costUsd;
  await writeJson(runPaths(spec.runDir).timing, {
    total_tokens: tokens,
    duration_ms: proc?.durationMs ?? 0,
    total_duration_seconds: seconds,
    ...(proc ? { executor_start: proc.startedAt, executor_end: proc.endedAt } : {}),
    executor_duration_seconds: seconds,
    input_tokens: usage?.inputTokens ?? 0,
    output_tokens: usage?.outputTokens ?? 0,
    // Stryker disable next-line ConditionalExpression: equivalent, JSON leaves an undefined cost out all the same
    ...(cost !== undefined ? { cost_usd: cost } : {}),
    ...(result?.result?.numTurns !== undefined ? { num_turns: result.result.numTurns } : {}),
    ...(result?.init?.model ? { model: result.init.model } : {}),
    outcome,
    ...(error ? { error } : {}),
    attempts: attempt.attempts,
    simulated: ctx.agent.simulated,
    ...(activation.contaminated ? { contaminated: true } : {}),
  });
  const total = Date.now() - started;
  return {
    spec,
    outcome,
    ...(error ? { error } : {}),
    attempts: attempt.attempts,
    durationMs: total,
    tokens,
    costUsd: cost ?? 0,
    ...(cost === undefined ? { costUnknown: true } : {}),
    skipped: false,
    overheadMs: Math.max(0, total - (proc?.durationMs ?? 0)),
    ...(activation.contaminated ? { contaminated: true } : {}),
  };
}
