import { rm } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import { ReusedFrom } from "../contracts/store-entry.js";
import { readJsonIfPresent, writeJson } from "../runlog/atomic-write.js";
import { iterationNumberOf, runPaths } from "../runlog/layout.js";
import { copyStoredRun, hashFileIfAny, hashTree, type ResultStore, storeKey } from "../store/index.js";
import { DEFAULT_OUTPUT_LIMITS, type OutputLimits, stageWorkspace } from "../workspace/index.js";
import { type RunContext, type StagingContext, workspaceInput } from "./execute-run.js";
import type { RunSpec } from "./plan.js";
import type { RunRecord } from "./run-record.js";
import { runWorkspacePlan } from "./workspace-plan.js";

/** What reusing stored runs needs beyond the run context: the store, the iteration, and who grades. */
export interface EvalReuse {
  store: ResultStore;
  iterationDir: string;
  /** Names the judge, so a grading made by another judge is not reused. */
  judge: string;
}

/**
 * What a run made now is stored as: its `iteration-<N>` folder (the one above an agent's folder, in a run of several
 * agents), the run's path inside it (through the agent's folder), the workspace holding it, and what it cost.
 */
export function storeSource(iterationDir: string, runDir: string, costUsd: number): ReusedFrom {
  const agentPart =
    iterationNumberOf(basename(iterationDir)) === undefined &&
    iterationNumberOf(basename(dirname(iterationDir))) !== undefined;
  const iteration = agentPart ? dirname(iterationDir) : iterationDir;
  return {
    iteration: basename(iteration),
    run: relative(iteration, runDir).replaceAll("\\", "/"),
    workspace: dirname(iteration),
    cost_usd: costUsd,
  };
}

// Everything about the agent that can change an outcome, the same for every run of one command.
export async function agentKeyParts(ctx: Pick<RunContext, "agent" | "model">) {
  return {
    agent: ctx.agent.name,
    version: ctx.agent.version ?? null,
    mode: ctx.agent.mode ?? null,
    model: ctx.model ?? null,
    simulated: ctx.agent.simulated,
    sim_script: ctx.agent.simulated ? await hashFileIfAny(ctx.agent.simScript) : null,
    // A sandboxed run is never served by a plain one, nor the other way round (absent: the keys stored before it).
    ...(ctx.agent.sandboxed ? { sandbox: true } : {}),
    // The names the suite passes on change what a run sees (absent: none, as in the keys stored before them).
    ...(ctx.agent.passEnv?.length ? { env: [...ctx.agent.passEnv].sort() } : {}),
  };
}

// The staged workspace is hashed rather than its sources, so whatever staging would put before the agent (project
// root, overlays, fixtures, the skill for the configurations that install one) is in the key, and nothing else.
async function stagedWorkspaceHash(spec: RunSpec, ctx: StagingContext): Promise<string> {
  const dir = join(
    ctx.tempRoot,
    `key-${basename(dirname(dirname(spec.runDir)))}-${spec.configuration}-${spec.runNumber}`,
  );
  try {
    await stageWorkspace(runWorkspacePlan(workspaceInput(spec, ctx, dir)));
    return await hashTree(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The workspace hash of each run, staged once per eval and configuration: a run's workspace does not depend on its
 * run number, so the runs of one pair share it.
 */
export function workspaceHashes(ctx: StagingContext): (spec: RunSpec) => Promise<string> {
  const hashes = new Map<string, Promise<string>>();
  return (spec) => {
    const pair = `${dirname(dirname(spec.runDir))}\n${spec.configuration}`;
    const known = hashes.get(pair);
    if (known) return known;
    const hash = stagedWorkspaceHash(spec, ctx);
    // Stryker disable next-line CallExpression: equivalent, a cache: the workspace staged again hashes the same
    hashes.set(pair, hash);
    return hash;
  };
}

// Limits decide whether a run's outputs were collected; the defaults stay out of the key, so stored runs still match.
function outputLimitsKey(limits: OutputLimits | undefined): { output_limits?: OutputLimits } {
  if (limits === undefined) return {};
  const same = (Object.keys(limits) as (keyof OutputLimits)[]).every(
    (name) => limits[name] === DEFAULT_OUTPUT_LIMITS[name],
  );
  return same ? {} : { output_limits: limits };
}

export async function evalRunKey(
  spec: RunSpec,
  ctx: StagingContext,
  workspaceOf: (spec: RunSpec) => Promise<string> = (s) => stagedWorkspaceHash(s, ctx),
): Promise<string> {
  return storeKey({
    kind: "eval-run",
    ...(await agentKeyParts(ctx)),
    configuration: spec.configuration,
    prompt: spec.eval.prompt,
    timeout_ms: spec.timeoutMs,
    ...outputLimitsKey(ctx.outputLimits),
    run: spec.runNumber,
    workspace: await workspaceOf(spec),
  });
}

export const gradingKey = (spec: Pick<RunSpec, "eval">, judge: string) =>
  storeKey({ expectations: spec.eval.expectations, checks: spec.eval.checks, judge });

async function reusedMark(runDir: string): Promise<ReusedFrom | undefined> {
  const timing = (await readJsonIfPresent(runPaths(runDir).timing)) as { reused_from?: unknown } | undefined;
  const parsed = ReusedFrom.safeParse(timing?.reused_from);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The scheduler's hooks with a result store: a run finished earlier in this iteration is kept; else a stored run with
 * the same key is copied in, marked `reused_from` and costing nothing (graded again unless its expectations and
 * judge are the same); else the run is made and stored.
 */
export function withStore(
  ctx: RunContext,
  reuse: EvalReuse,
  base: {
    finishedEarlier: (spec: RunSpec) => Promise<RunRecord | undefined>;
    run: (spec: RunSpec) => Promise<RunRecord>;
  },
) {
  const keys = new Map<string, Promise<string>>();
  const workspaceOf = workspaceHashes(ctx);
  const keyOf = (spec: RunSpec) => {
    const known = keys.get(spec.runDir);
    if (known) return known;
    const key = evalRunKey(spec, ctx, workspaceOf);
    // Stryker disable next-line CallExpression: equivalent, a cache: the key computed again is the same
    keys.set(spec.runDir, key);
    return key;
  };
  return {
    async finishedEarlier(spec: RunSpec): Promise<RunRecord | undefined> {
      const earlier = await base.finishedEarlier(spec);
      if (earlier) {
        const mark = await reusedMark(spec.runDir);
        return mark ? { ...earlier, reusedFrom: mark } : earlier;
      }
      if (!reuse.store.reads) return undefined;
      const stored = await reuse.store.get("eval-run", await keyOf(spec));
      if (!stored) return undefined;
      const keepGrading = stored.entry.grading_key === gradingKey(spec, reuse.judge);
      await copyStoredRun(stored, spec.runDir, (path) => !keepGrading && path === "grading.json");
      const timing = (await readJsonIfPresent(runPaths(spec.runDir).timing)) as Record<string, unknown>;
      await writeJson(runPaths(spec.runDir).timing, {
        ...timing,
        cost_usd: 0,
        reused_from: stored.entry.source,
      });
      const record = await base.finishedEarlier(spec);
      return record ? { ...record, reusedFrom: stored.entry.source } : undefined;
    },
    async run(spec: RunSpec): Promise<RunRecord> {
      const record = await base.run(spec);
      if (record.outcome !== "success" || ctx.signal?.aborted) return record;
      const graded = (await readJsonIfPresent(runPaths(spec.runDir).grading)) !== undefined;
      await reuse.store.put("eval-run", await keyOf(spec), {
        runDir: spec.runDir,
        source: storeSource(reuse.iterationDir, spec.runDir, record.costUsd),
        ...(graded ? { gradingKey: gradingKey(spec, reuse.judge) } : {}),
      });
      return record;
    },
  };
}
