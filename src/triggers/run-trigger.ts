import { join } from "node:path";
import { writeActivation } from "../activation/index.js";
import type { Agent, AgentRunResult, RunOutcome } from "../agents/agent.js";
import { TriggerRun } from "../contracts/run-record.js";
import type { ReusedFrom } from "../contracts/store-entry.js";
import { type AttemptEnv, type AttemptPlan, runAttempt } from "../run/attempt.js";
import type { RetryInfo, RetryPolicy } from "../run/retry.js";
import { readJsonIfPresent, writeJson } from "../runlog/atomic-write.js";
import type { Companion } from "./companions.js";
import type { ProjectCondition } from "./conditions.js";
import type { ContextCondition } from "./context.js";
import { detectTrigger, stolenBy } from "./detect.js";
import type { TriggerRunSpec } from "./plan.js";
import { triggerRunCost } from "./run-cost.js";
import type { TriggerRunResult } from "./score.js";

export interface TriggerContext {
  agent: Agent;
  skillName: string;
  /** The skill folder to install (the user's, or a copy with another description). */
  skillSourceDir: string;
  /** Other skills installed beside it under their own names (`--with-skills`). */
  companions: Companion[];
  /** Every skill of the library folders of `--installed`, beside it under their own names. */
  installed?: Companion[];
  /** `--project-root`: each run's workspace starts as a copy of the project's snapshot. */
  project?: ProjectCondition;
  /** `--context`: each run continues this prior conversation. */
  context?: ContextCondition;
  model?: string;
  timeoutMs: number;
  tempRoot: string;
  retry: RetryPolicy;
  signal?: AbortSignal;
  onRetry?: (spec: TriggerRunSpec, info: RetryInfo) => void;
}

export interface TriggerRunRecord extends TriggerRunResult {
  spec: TriggerRunSpec;
  outcome: RunOutcome;
  attempts: number;
  durationMs: number;
  skipped: boolean;
  record: TriggerRun;
  /** Copied from the result store instead of run: where it came from. */
  reusedFrom?: ReusedFrom;
}

// Outcomes that produce a trustworthy answer; anything else (timeouts, crashes, exhausted retries) is an error.
const SCORED: readonly RunOutcome[] = ["success", "stopped"];

// Each model answer is one assistant message; their count is the number of model requests the run cost.
function modelRequests(result: AgentRunResult): number {
  const answers = new Set(
    result.events.flatMap((e) =>
      (e.kind === "text" || e.kind === "tool_use") && e.messageId ? [e.messageId] : [],
    ),
  );
  return answers.size;
}

// The skills installed beside the one under test: `--with-skills`, then `--installed`.
const besides = (ctx: Pick<TriggerContext, "companions" | "installed">): Companion[] => [
  ...ctx.companions,
  ...(ctx.installed ?? []),
];

export async function finishedTriggerRun(spec: TriggerRunSpec): Promise<TriggerRun | undefined> {
  const parsed = TriggerRun.safeParse(await readJsonIfPresent(join(spec.runDir, "trigger.json")));
  if (!parsed.success || parsed.data.query !== spec.query) return undefined;
  return parsed.data.outcome === "cancelled" ? undefined : parsed.data;
}

function fromRecord(spec: TriggerRunSpec, record: TriggerRun, skipped: boolean): TriggerRunRecord {
  return {
    spec,
    queryIndex: spec.queryIndex,
    triggered: record.triggered,
    stolenBy: record.stolen_by,
    ...(record.error !== undefined ? { error: record.error } : {}),
    outcome: record.outcome,
    attempts: record.attempts,
    durationMs: record.duration_ms,
    skipped,
    record,
  };
}

/** The record of a trigger run finished in an earlier, interrupted invocation; it is not run again. */
export async function resumeFinishedTriggerRun(spec: TriggerRunSpec): Promise<TriggerRunRecord | undefined> {
  const earlier = await finishedTriggerRun(spec);
  return earlier ? fromRecord({ ...spec, syntheticName: earlier.synthetic_name }, earlier, true) : undefined;
}

/** One trigger run: a fresh workspace holding the skill under a unique name, the query, and what loaded. */
export function executeTriggerRun(spec: TriggerRunSpec, ctx: TriggerContext): Promise<TriggerRunRecord> {
  const started = Date.now();
  const plan: AttemptPlan = {
    name: `q${spec.queryIndex + 1}-r${spec.runNumber}`,
    runNumber: spec.runNumber,
    runDir: spec.runDir,
    workspace: (dir) => ({
      dir,
      ...(ctx.project ? { projectRoot: ctx.project.snapshot } : {}),
      skills: [{ sourceDir: ctx.skillSourceDir, installName: spec.syntheticName }, ...besides(ctx)],
      skillsFolder: ctx.agent.skillsFolder,
      fixtures: [],
      rewriteSkillName: true,
    }),
    prompt: spec.query,
    ...(ctx.context ? { history: ctx.context.turns } : {}),
    timeoutMs: ctx.timeoutMs,
    heading: `Trigger query ${spec.queryIndex + 1}, run ${spec.runNumber} (skill installed as ${spec.syntheticName})`,
    streamUsage: true,
    eventLog: true,
    // Stop the moment our skill loads: the question is answered and the rest of the run would only cost.
    onEvent: (event) =>
      detectTrigger([event], spec.syntheticName, ctx.skillName).triggered ? "stop" : undefined,
    onRetry: (info) => ctx.onRetry?.(spec, info),
  };
  const env: AttemptEnv = {
    agent: ctx.agent,
    ...(ctx.model ? { model: ctx.model } : {}),
    tempRoot: ctx.tempRoot,
    retry: ctx.retry,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
  return runAttempt(plan, env, async ({ outcome, result, setupError, attempts }) => {
    const detection = detectTrigger(result?.events ?? [], spec.syntheticName, ctx.skillName);
    const scored = SCORED.includes(outcome);
    const error = setupError ?? (scored ? undefined : (result?.message ?? outcome));
    const record: TriggerRun = {
      query: spec.query,
      should_trigger: spec.shouldTrigger,
      synthetic_name: spec.syntheticName,
      triggered: scored && detection.triggered,
      skills_loaded: detection.loaded,
      stolen_by: scored ? stolenBy(detection, ctx.skillName) : [],
      outcome,
      ...(error !== undefined ? { error } : {}),
      attempts,
      duration_ms: Date.now() - started,
      ...(result ? { model_requests: modelRequests(result) } : {}),
      ...triggerRunCost(result, {
        simulated: ctx.agent.simulated,
        ...(ctx.model ? { model: ctx.model } : {}),
      }),
      simulated: ctx.agent.simulated,
    };
    const activation = await writeActivation(spec.runDir, result?.events ?? [], {
      skill: ctx.skillName,
      skillDir: ctx.skillSourceDir,
      configuration: "trigger",
      agent: ctx.agent.name,
      staged: {
        [spec.syntheticName]: ctx.skillName,
        ...Object.fromEntries(besides(ctx).map((c) => [c.installName, c.installName])),
      },
      ...(result?.sandbox ? { sandbox: result.sandbox } : {}),
    });
    if (activation.contaminated) record.contaminated = true;
    await writeJson(join(spec.runDir, "trigger.json"), record);
    return fromRecord(spec, record, false);
  });
}
