import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Agent, AgentRunResult, RunOutcome } from "../agents/agent.js";
import { writeEventLog } from "../agents/event-log.js";
import { totalTokens } from "../agents/events.js";
import type { Redactor } from "../agents/redact.js";
import { RunStatus } from "../contracts/run-record.js";
import { readJsonIfPresent, writeJson } from "../runlog/atomic-write.js";
import { runPaths } from "../runlog/layout.js";
import {
  collectOutputs,
  diffManifest,
  type ManifestDiff,
  stageWorkspace,
  takeManifest,
} from "../workspace/index.js";
import type { RunSpec } from "./plan.js";
import type { RunReporter } from "./reporter.js";
import { type RetryPolicy, withRetries } from "./retry.js";
import { runMetrics } from "./run-metrics.js";
import { isFinishedOutcome, type RunRecord } from "./run-record.js";
import { transcriptMarkdown } from "./transcript-md.js";
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
}

/** A run that succeeded in an earlier invocation; its workspace is gone but `workspace` rebuilds it. */
export interface EarlierRun {
  spec: RunSpec;
  skillName: string;
  workspace: RunWorkspaceInput;
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
  tempRoot: string;
  signal?: AbortSignal;
  retry: RetryPolicy;
  reporter?: RunReporter;
  keepWorkspaces?: boolean;
  /** Runs while the finished workspace still exists (grading checks that need it). */
  afterRun?: (finished: FinishedRun) => Promise<{ judgeCostUsd?: number }>;
  /** Runs for each run that succeeded in an earlier invocation (an interrupted grade is finished here). */
  afterEarlierRun?: (earlier: EarlierRun) => Promise<{ judgeCostUsd?: number }>;
}

function slug(spec: RunSpec): string {
  return `${String(spec.eval.id).replace(/[^A-Za-z0-9_-]/g, "_")}-${spec.configuration}-${spec.runNumber}`;
}

/** The outcome of a run already finished in an earlier, interrupted invocation (it is not run again). */
export async function finishedEarlier(spec: RunSpec): Promise<RunOutcome | undefined> {
  const parsed = RunStatus.safeParse(await readJsonIfPresent(runPaths(spec.runDir).timing));
  return parsed.success && isFinishedOutcome(parsed.data.outcome) ? parsed.data.outcome : undefined;
}

function workspaceInput(spec: RunSpec, ctx: RunContext, dir: string): RunWorkspaceInput {
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

async function attemptRun(spec: RunSpec, ctx: RunContext, attempt: number) {
  const attemptDir = join(ctx.tempRoot, `${slug(spec)}-a${attempt}`);
  const work = join(attemptDir, "work");
  const home = join(attemptDir, "home");
  await rm(spec.runDir, { recursive: true, force: true });
  await mkdir(runPaths(spec.runDir).outputs, { recursive: true });
  await mkdir(home, { recursive: true });
  await stageWorkspace(runWorkspacePlan(workspaceInput(spec, ctx, work)));
  const before = await takeManifest(work, { exclude: [ctx.agent.skillsFolder] });
  const result = await ctx.agent.run({
    prompt: spec.eval.prompt,
    cwd: work,
    home,
    ...(ctx.model ? { model: ctx.model } : {}),
    timeoutMs: spec.timeoutMs,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    transcriptPath: runPaths(spec.runDir).transcript,
  });
  return { result, attemptDir, work, before };
}

/** Stages a fresh workspace, runs the agent (retrying when the service is busy), and records everything. */
export async function executeRun(spec: RunSpec, ctx: RunContext): Promise<RunRecord> {
  const started = Date.now();
  const earlier = await finishedEarlier(spec);
  if (earlier) {
    const record = await skipFinished(spec, ctx, earlier);
    ctx.reporter?.onRunEnd?.(record);
    return record;
  }
  ctx.reporter?.onRunStart?.(spec);
  type Attempt = {
    outcome: RunOutcome;
    staged?: Awaited<ReturnType<typeof attemptRun>>;
    setupError?: string;
  };
  const { result, attempts } = await withRetries<Attempt>(
    async (n) => {
      try {
        const staged = await attemptRun(spec, ctx, n);
        return { outcome: staged.result.outcome, staged };
      } catch (error) {
        return { outcome: "crash", setupError: error instanceof Error ? error.message : String(error) };
      }
    },
    {
      policy: ctx.retry,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      onRetry: (info) => ctx.reporter?.onRunRetry?.(spec, info),
      discard: async (a) => {
        if (a.staged) await rm(a.staged.attemptDir, { recursive: true, force: true });
      },
    },
  );
  const { record, changes } = await recordRun(spec, ctx, result.staged, result.setupError, attempts, started);
  if (ctx.afterRun && result.staged && changes && record.outcome === "success") {
    const graded = await ctx.afterRun({
      spec,
      skillName: ctx.skill.name,
      workspaceDir: result.staged.work,
      result: result.staged.result,
      changes,
      redactor: ctx.agent.redactor,
    });
    if (graded.judgeCostUsd !== undefined) record.judgeCostUsd = graded.judgeCostUsd;
  }
  if (result.staged && !ctx.keepWorkspaces)
    await rm(result.staged.attemptDir, { recursive: true, force: true });
  ctx.reporter?.onRunEnd?.(record);
  return record;
}

// A run finished earlier is not run again; one that succeeded goes to `afterEarlierRun` (which may grade it).
async function skipFinished(spec: RunSpec, ctx: RunContext, outcome: RunOutcome): Promise<RunRecord> {
  const record: RunRecord = {
    spec,
    outcome: "success",
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
    });
    if (graded.judgeCostUsd !== undefined) record.judgeCostUsd = graded.judgeCostUsd;
  } finally {
    if (!ctx.keepWorkspaces) await rm(dir, { recursive: true, force: true });
  }
  return record;
}

async function recordRun(
  spec: RunSpec,
  ctx: RunContext,
  staged: Awaited<ReturnType<typeof attemptRun>> | undefined,
  setupError: string | undefined,
  attempts: number,
  started: number,
): Promise<{ record: RunRecord; changes?: ManifestDiff }> {
  await mkdir(runPaths(spec.runDir).outputs, { recursive: true });
  const result = staged?.result;
  const outcome = result?.outcome ?? "crash";
  const redactor = ctx.agent.redactor;
  const error = setupError
    ? `workspace setup failed: ${redactor.text(setupError)}`
    : outcome === "success"
      ? undefined
      : result?.message;
  let files = { created: [] as string[], modified: [] as string[], deleted: [] as string[], chars: 0 };
  let changes: ManifestDiff | undefined;
  if (staged && result) {
    const after = await takeManifest(staged.work, { exclude: [ctx.agent.skillsFolder] });
    changes = diffManifest(staged.before, after);
    const collected = await collectOutputs(staged.work, changes, runPaths(spec.runDir).outputs, redactor);
    files = {
      created: changes.created,
      modified: changes.modified,
      deleted: changes.deleted,
      chars: collected.chars,
    };
  }
  const events = result?.events ?? [];
  const markdown = transcriptMarkdown(
    spec.eval.prompt,
    events,
    `${spec.evalName} — ${spec.configuration} — run ${spec.runNumber}`,
    { simulated: ctx.agent.simulated },
  );
  await writeFile(runPaths(spec.runDir).transcriptMarkdown, markdown, "utf8");
  if (!result) await writeFile(runPaths(spec.runDir).transcript, "", "utf8");
  await writeEventLog(runPaths(spec.runDir).events, events, redactor);
  await writeJson(
    runPaths(spec.runDir).metrics,
    runMetrics(events, files, markdown.length, outcome !== "success"),
  );

  const usage = result?.result?.usage;
  const proc = result?.process;
  const seconds = (proc?.durationMs ?? 0) / 1000;
  const tokens = totalTokens(usage);
  // The simulator charges nothing, whatever price Claude Code computes for the tokens it counted.
  const costUsd = ctx.agent.simulated ? 0 : (result?.result?.costUsd ?? 0);
  await writeJson(runPaths(spec.runDir).timing, {
    total_tokens: tokens,
    duration_ms: proc?.durationMs ?? 0,
    total_duration_seconds: seconds,
    ...(proc ? { executor_start: proc.startedAt, executor_end: proc.endedAt } : {}),
    executor_duration_seconds: seconds,
    input_tokens: usage?.input_tokens ?? 0,
    output_tokens: usage?.output_tokens ?? 0,
    cost_usd: costUsd,
    ...(result?.result?.numTurns !== undefined ? { num_turns: result.result.numTurns } : {}),
    ...(result?.init?.model ? { model: result.init.model } : {}),
    outcome,
    ...(error ? { error } : {}),
    attempts,
    simulated: ctx.agent.simulated,
  });
  const total = Date.now() - started;
  const record: RunRecord = {
    spec,
    outcome,
    ...(error ? { error } : {}),
    attempts,
    durationMs: total,
    tokens,
    costUsd,
    skipped: false,
    overheadMs: Math.max(0, total - (proc?.durationMs ?? 0)),
  };
  return { record, ...(changes ? { changes } : {}) };
}
