import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Agent, AgentRunResult, RunOutcome } from "../agents/agent.js";
import { TriggerRun } from "../contracts/run-record.js";
import { type RetryPolicy, withRetries } from "../run/retry.js";
import { transcriptMarkdown } from "../run/transcript-md.js";
import { readJsonIfPresent, writeJson } from "../runlog/atomic-write.js";
import { stageWorkspace } from "../workspace/index.js";
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
  companions: { sourceDir: string; installName: string }[];
  model?: string;
  timeoutMs: number;
  tempRoot: string;
  retry: RetryPolicy;
  signal?: AbortSignal;
  onRetry?: (spec: TriggerRunSpec, info: { attempt: number; outcome: RunOutcome; delayMs: number }) => void;
}

export interface TriggerRunRecord extends TriggerRunResult {
  spec: TriggerRunSpec;
  outcome: RunOutcome;
  attempts: number;
  durationMs: number;
  skipped: boolean;
  record: TriggerRun;
}

// Outcomes that produce a trustworthy answer; anything else (timeouts, crashes, exhausted retries) is an error.
const SCORED: readonly RunOutcome[] = ["success", "stopped"];

async function attempt(spec: TriggerRunSpec, ctx: TriggerContext, n: number) {
  const base = join(ctx.tempRoot, `q${spec.queryIndex + 1}-r${spec.runNumber}-a${n}`);
  const work = join(base, "work");
  await rm(spec.runDir, { recursive: true, force: true });
  await mkdir(spec.runDir, { recursive: true });
  await stageWorkspace({
    dir: work,
    skills: [{ sourceDir: ctx.skillSourceDir, installName: spec.syntheticName }, ...ctx.companions],
    skillsFolder: ctx.agent.skillsFolder,
    fixtures: [],
    rewriteSkillName: true,
  });
  const result = await ctx.agent.run({
    prompt: spec.query,
    cwd: work,
    home: join(base, "home"),
    ...(ctx.model ? { model: ctx.model } : {}),
    timeoutMs: ctx.timeoutMs,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    transcriptPath: join(spec.runDir, "transcript.jsonl"),
    streamUsage: true,
    // Stop the moment our skill loads: the question is answered and the rest of the run would only cost.
    onEvent: (event) =>
      detectTrigger([event], spec.syntheticName, ctx.skillName).triggered ? "stop" : undefined,
  });
  // Each model answer is one assistant message; their count is the number of model requests the run cost.
  const answers = new Set(
    result.events.flatMap((e) =>
      (e.kind === "text" || e.kind === "tool_use") && e.messageId ? [e.messageId] : [],
    ),
  );
  return { outcome: result.outcome, result, base, modelRequests: answers.size };
}

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

/** One trigger run: a fresh workspace holding the skill under a unique name, the query, and what loaded. */
export async function executeTriggerRun(
  spec: TriggerRunSpec,
  ctx: TriggerContext,
): Promise<TriggerRunRecord> {
  const earlier = await finishedTriggerRun(spec);
  if (earlier) return fromRecord({ ...spec, syntheticName: earlier.synthetic_name }, earlier, true);

  const started = Date.now();
  type Attempt = {
    outcome: RunOutcome;
    result?: AgentRunResult;
    base?: string;
    modelRequests?: number;
    setupError?: string;
  };
  const { result, attempts } = await withRetries<Attempt>(
    async (n) => {
      try {
        return await attempt(spec, ctx, n);
      } catch (error) {
        return { outcome: "crash", setupError: error instanceof Error ? error.message : String(error) };
      }
    },
    {
      policy: ctx.retry,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      onRetry: (info) => ctx.onRetry?.(spec, info),
      discard: async (a) => {
        if (a.base) await rm(a.base, { recursive: true, force: true });
      },
    },
  );
  if (result.base) await rm(result.base, { recursive: true, force: true });
  const events = result.result?.events ?? [];
  const detection = detectTrigger(events, spec.syntheticName, ctx.skillName);
  const scored = SCORED.includes(result.outcome);
  const error = result.setupError
    ? `workspace setup failed: ${ctx.agent.redactor.text(result.setupError)}`
    : scored
      ? undefined
      : (result.result?.message ?? result.outcome);
  const record: TriggerRun = {
    query: spec.query,
    should_trigger: spec.shouldTrigger,
    synthetic_name: spec.syntheticName,
    triggered: scored && detection.triggered,
    skills_loaded: detection.loaded,
    stolen_by: scored ? stolenBy(detection, ctx.skillName) : [],
    outcome: result.outcome,
    ...(error !== undefined ? { error } : {}),
    attempts,
    duration_ms: Date.now() - started,
    ...(result.modelRequests !== undefined ? { model_requests: result.modelRequests } : {}),
    ...triggerRunCost(result.result, {
      simulated: ctx.agent.simulated,
      ...(ctx.model ? { model: ctx.model } : {}),
    }),
    simulated: ctx.agent.simulated,
  };
  await mkdir(spec.runDir, { recursive: true });
  const heading = `Trigger query ${spec.queryIndex + 1}, run ${spec.runNumber} (skill installed as ${spec.syntheticName})`;
  await writeFile(
    join(spec.runDir, "transcript.md"),
    transcriptMarkdown(spec.query, events, heading, { simulated: ctx.agent.simulated }),
    "utf8",
  );
  await writeJson(join(spec.runDir, "trigger.json"), record);
  return fromRecord(spec, record, false);
}
