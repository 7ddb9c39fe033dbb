import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Agent, AgentRunRequest, AgentRunResult, RunOutcome } from "../agents/agent.js";
import { writeEventLog } from "../agents/event-log.js";
import { attemptFolderName } from "../contracts/run-marker.js";
import { runPaths } from "../runlog/layout.js";
import {
  CollectStopped,
  collectDeadline,
  collectOutputs,
  DEFAULT_OUTPUT_LIMITS,
  type Manifest,
  type ManifestDiff,
  type OutputLimits,
  scanChanges,
  stageWorkspace,
  takeManifest,
  type WorkspacePlan,
} from "../workspace/index.js";
import { type RetryInfo, type RetryPolicy, withRetries } from "./retry.js";
import { transcriptMarkdown } from "./transcript-md.js";

/** What every agent run shares, eval or trigger: the agent, where attempts are staged, how a busy service is retried. */
export interface AttemptEnv {
  agent: Agent;
  model?: string;
  tempRoot: string;
  retry: RetryPolicy;
  signal?: AbortSignal;
  /** Leaves the last attempt's folder on disk (`--keep-workspaces`). */
  keepWorkspace?: boolean;
}

/** One run to make: its workspace, its prompt, and where its record goes. */
export interface AttemptPlan {
  /** Names the run's attempt folders under the temp root (`<name>.run-<runNumber>.a<n>`). */
  name: string;
  /** The run's number in its plan: the attempt folder carries it, so the simulator can tell run n wherever it runs. */
  runNumber: number;
  runDir: string;
  /** The workspace to stage in the given folder. */
  workspace: (dir: string) => WorkspacePlan;
  prompt: string;
  timeoutMs: number;
  /** The heading of transcript.md. */
  heading: string;
  /** Copies what the agent created or changed into `<runDir>/outputs` (artifact evals). */
  collectOutputs?: boolean;
  /** What the collected outputs may come to; over a limit nothing is collected and the run is `output_limit`. */
  outputLimits?: OutputLimits;
  /** Writes the agent-neutral events.jsonl that re-grading reads (artifact evals). */
  eventLog?: boolean;
  streamUsage?: boolean;
  /** A prior conversation the run continues (`--context`). */
  history?: AgentRunRequest["history"];
  onEvent?: AgentRunRequest["onEvent"];
  onRetry?: (info: RetryInfo) => void;
}

/** The last attempt of a run, its transcript written and its workspace still on disk. */
export interface Attempt {
  outcome: RunOutcome;
  attempts: number;
  /** Absent when the workspace could not be staged. */
  result?: AgentRunResult;
  /** `workspace setup failed: …`, credentials masked, when staging failed. */
  setupError?: string;
  /** Why the outputs were not collected (over a limit, out of time, unreadable), credentials masked. */
  collectError?: string;
  workspaceDir?: string;
  /** What the agent changed in its workspace (with `collectOutputs`). */
  changes?: ManifestDiff;
  /** Characters of the collected outputs. */
  outputChars: number;
  transcriptMarkdown: string;
}

interface Staged {
  outcome: RunOutcome;
  folder?: string;
  work?: string;
  before?: Manifest;
  result?: AgentRunResult;
  setupError?: string;
}

async function stageAndRun(plan: AttemptPlan, env: AttemptEnv, folder: string): Promise<Staged> {
  const work = join(folder, "work");
  const home = join(folder, "home");
  await rm(plan.runDir, { recursive: true, force: true });
  await mkdir(plan.collectOutputs ? runPaths(plan.runDir).outputs : plan.runDir, { recursive: true });
  await mkdir(home, { recursive: true });
  await stageWorkspace(plan.workspace(work));
  const before = plan.collectOutputs
    ? await takeManifest(work, { exclude: [env.agent.skillsFolder] })
    : undefined;
  const result = await env.agent.run({
    prompt: plan.prompt,
    cwd: work,
    home,
    ...(env.model ? { model: env.model } : {}),
    timeoutMs: plan.timeoutMs,
    ...(env.signal ? { signal: env.signal } : {}),
    transcriptPath: runPaths(plan.runDir).transcript,
    ...(plan.streamUsage ? { streamUsage: true } : {}),
    ...(plan.history ? { history: plan.history } : {}),
    ...(plan.onEvent ? { onEvent: plan.onEvent } : {}),
  });
  return { outcome: result.outcome, folder, work, ...(before ? { before } : {}), result };
}

interface Collected {
  changes?: ManifestDiff;
  outputChars: number;
  /** The outputs were not collected: the outcome this makes of a successful run, and why. */
  stopped?: { outcome: RunOutcome; message: string };
}

// Bounded by the output limits and by what is left of the run's time: the walk stats before anything is read.
async function collect(plan: AttemptPlan, env: AttemptEnv, staged: Staged): Promise<Collected> {
  if (!plan.collectOutputs || !staged.work || !staged.before || !staged.result) return { outputChars: 0 };
  const outputs = runPaths(plan.runDir).outputs;
  const bounds = {
    limits: plan.outputLimits ?? DEFAULT_OUTPUT_LIMITS,
    deadline: collectDeadline(plan.timeoutMs, staged.result.process.durationMs, Date.now()),
  };
  const { redactor } = env.agent;
  try {
    const changes = await scanChanges(staged.work, staged.before, bounds, {
      exclude: [env.agent.skillsFolder],
    });
    const collected = await collectOutputs(staged.work, changes, outputs, { redactor, bounds });
    return { changes, outputChars: collected.chars };
  } catch (error) {
    // Half a collection is no record: the outputs folder is left empty.
    await rm(outputs, {
      recursive: true,
      // Stryker disable next-line BooleanLiteral: equivalent, the outputs folder was made before collecting
      force: true,
    });
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent, the run folder above it is there
    await mkdir(outputs, { recursive: true });
    if (error instanceof CollectStopped) {
      const outcome = error.code === "OUTPUT_LIMIT" ? "output_limit" : "timeout";
      return { outputChars: 0, stopped: { outcome, message: redactor.text(error.message) } };
    }
    const detail = error instanceof Error ? error.message : String(error);
    return {
      outputChars: 0,
      stopped: { outcome: "crash", message: `could not collect the outputs: ${redactor.text(detail)}` },
    };
  }
}

/**
 * Stages a fresh workspace and runs the agent in it, again after a pause while the service is busy; then collects
 * what it changed and writes transcript.md (and events.jsonl). `finish` sees the last attempt while its workspace still exists; the
 * attempt's folder is removed after it.
 */
export async function runAttempt<R>(
  plan: AttemptPlan,
  env: AttemptEnv,
  finish: (attempt: Attempt) => Promise<R>,
): Promise<R> {
  const { result: last, attempts } = await withRetries<Staged>(
    async (n) => {
      const folder = join(env.tempRoot, attemptFolderName(plan.name, plan.runNumber, n));
      try {
        return await stageAndRun(plan, env, folder);
      } catch (error) {
        const setupError = error instanceof Error ? error.message : String(error);
        return { outcome: "crash", folder, setupError };
      }
    },
    {
      policy: env.retry,
      ...(env.signal ? { signal: env.signal } : {}),
      ...(plan.onRetry ? { onRetry: plan.onRetry } : {}),
      discard: async (staged) => {
        if (staged.folder)
          await rm(staged.folder, {
            recursive: true,
            // Stryker disable next-line BooleanLiteral: equivalent, only an attempt the agent answered is retried, and its folder is there
            force: true,
          });
      },
    },
  );
  try {
    const paths = runPaths(plan.runDir);
    await mkdir(plan.collectOutputs ? paths.outputs : plan.runDir, { recursive: true });
    const { changes, outputChars, stopped } = await collect(plan, env, last);
    const events = last.result?.events ?? [];
    const markdown = transcriptMarkdown(plan.prompt, events, plan.heading, {
      simulated: env.agent.simulated,
    });
    await writeFile(paths.transcriptMarkdown, markdown, "utf8");
    if (plan.eventLog) await writeEventLog(paths.events, events, env.agent.redactor);
    return await finish({
      // A run that failed on its own keeps its outcome; the collection's reason is told all the same.
      outcome: stopped && last.outcome === "success" ? stopped.outcome : last.outcome,
      attempts,
      ...(last.result ? { result: last.result } : {}),
      ...(last.setupError
        ? { setupError: `workspace setup failed: ${env.agent.redactor.text(last.setupError)}` }
        : {}),
      // Stryker disable next-line LogicalOperator: equivalent, an attempt has both its result and its workspace, or neither
      ...(last.result && last.work ? { workspaceDir: last.work } : {}),
      ...(changes ? { changes } : {}),
      ...(stopped ? { collectError: stopped.message } : {}),
      outputChars,
      transcriptMarkdown: markdown,
    });
  } finally {
    if (last.folder && !env.keepWorkspace) await rm(last.folder, { recursive: true, force: true });
  }
}
