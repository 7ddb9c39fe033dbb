import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { IterationState, TerminationReason, TuneIteration } from "../contracts/iteration-state.js";
import { targetSkillsOf } from "../contracts/iteration-state.js";
import type { TuneContext } from "./context.js";
import { shouldTerminate } from "./decisions.js";
import type { TuneEstimate } from "./estimate.js";
import { renderFinalReport } from "./final-report.js";
import type { TuneOptions } from "./options.js";
import { tunePaths } from "./paths.js";
import { evaluatePhase } from "./phase-evaluate.js";
import { executePhase } from "./phase-execute.js";
import { improvePhase } from "./phase-improve.js";
import { snapshotPhase, startIteration } from "./phase-snapshot.js";
import { bestDirs, bestIteration } from "./progress.js";
import { createTune, resumeTune } from "./setup.js";
import { skillDiff } from "./skill-files.js";

export interface SkillDiff {
  name: string;
  diff: string;
}

export interface TuneResult {
  tuneDir: string;
  state: IterationState;
  resumed: boolean;
  cancelled: boolean;
  estimate?: TuneEstimate;
  reportFile: string;
  best: { version: string | null; score: number | null; dirs: Record<string, string> };
  /** The user's skill folders and the tune's backups of them, by skill name. */
  skillPaths: Record<string, string>;
  originalDirs: Record<string, string>;
  /** Original → best, per skill ("" when unchanged). */
  diffs: SkillDiff[];
  costUsd: number;
  simulated: boolean;
}

type StepEnd = "next" | "cancelled" | "budget" | "finished";

function step(ctx: TuneContext, iteration: TuneIteration): Promise<StepEnd> {
  switch (iteration.status) {
    case "pending":
      return snapshotPhase(ctx, iteration).then(() => "next");
    case "executing":
      return executePhase(ctx, iteration);
    case "evaluating":
      return evaluatePhase(ctx, iteration);
    case "improving":
      return improvePhase(ctx, iteration);
    default:
      return Promise.resolve("next");
  }
}

function finish(state: IterationState, reason: TerminationReason): void {
  state.status = "completed";
  state.termination_reason = reason;
  state.converged = reason === "convergence_detected";
}

function totalCost(state: IterationState): number {
  return state.iterations.reduce(
    (sum, it) =>
      sum + (it.execution?.cost_usd ?? 0) + (it.evaluation?.cost_usd ?? 0) + (it.improvement?.cost_usd ?? 0),
    0,
  );
}

async function summarize(ctx: TuneContext, resumed: boolean, cancelled: boolean, estimate?: TuneEstimate) {
  const names = targetSkillsOf(ctx.state);
  const best = bestDirs(ctx);
  const absBest = Object.fromEntries(names.map((n) => [n, ctx.at(best[n] ?? tunePaths.original(n))]));
  const originalDirs = Object.fromEntries(names.map((n) => [n, ctx.at(tunePaths.original(n))]));
  const diffs: SkillDiff[] = [];
  for (const name of names)
    diffs.push({ name, diff: await skillDiff(originalDirs[name] as string, absBest[name] as string, name) });
  const changes: Record<number, string> = {};
  for (const it of ctx.state.iterations) {
    const file = it.improvement?.changes_file;
    if (file) changes[it.round] = await readFile(ctx.at(file), "utf8").catch(() => "");
  }
  const reportFile = join(ctx.dir, tunePaths.report);
  await writeFile(
    reportFile,
    renderFinalReport({ state: ctx.state, tuneDir: ctx.dir, changes, diffs, bestDirs: absBest }),
    "utf8",
  );
  const bestIt = bestIteration(ctx.state);
  const result: TuneResult = {
    tuneDir: ctx.dir,
    state: ctx.state,
    resumed,
    cancelled,
    ...(estimate ? { estimate } : {}),
    reportFile,
    best: { version: bestIt?.version ?? null, score: bestIt?.evaluation?.score ?? null, dirs: absBest },
    skillPaths: Object.fromEntries(names.map((n, i) => [n, ctx.state.skill_paths?.[i] ?? n])),
    originalDirs,
    diffs,
    costUsd: totalCost(ctx.state),
    simulated: ctx.state.simulated ?? false,
  };
  return result;
}

/**
 * The tune loop (Skill Iter Tune, grounded in real runs): per iteration snapshot → execute → evaluate → improve,
 * keeping a new version only when it scores better, until the seed's termination rule says stop. Every phase ends
 * with iteration-state.json written, so an interrupted tune resumes from its last finished phase.
 */
export async function runTune(options: TuneOptions): Promise<TuneResult> {
  let ctx: TuneContext;
  let estimate: TuneEstimate | undefined;
  const resumed = options.resumeDir !== undefined;
  if (options.resumeDir !== undefined) ctx = await resumeTune({ ...options, resumeDir: options.resumeDir });
  else ({ ctx, estimate } = await createTune(options));
  ctx.reporter.onStart?.({
    tuneDir: ctx.dir,
    resumed,
    state: ctx.state,
    ...(estimate ? { estimate } : {}),
    simulated: ctx.state.simulated ?? false,
  });
  let cancelled = false;
  while (ctx.state.status === "running") {
    if (options.signal?.aborted) {
      cancelled = true;
      break;
    }
    let iteration = ctx.state.iterations.at(-1);
    if (!iteration || iteration.status === "completed" || iteration.status === "failed") {
      const termination = shouldTerminate(ctx.state);
      if (termination.terminate) {
        finish(ctx.state, termination.reason);
        break;
      }
      iteration = await startIteration(ctx);
    }
    const end = await step(ctx, iteration);
    if (end === "cancelled") {
      cancelled = true;
      break;
    }
    if (end === "budget") {
      if (iteration.status === "executing") {
        iteration.status = "failed";
        iteration.error = "stopped: --max-cost reached before every run was made";
      }
      finish(ctx.state, "budget_exhausted");
    }
  }
  await ctx.save();
  const result = await summarize(ctx, resumed, cancelled, estimate);
  ctx.reporter.onEnd?.({
    reason: ctx.state.termination_reason,
    bestVersion: result.best.version,
    bestScore: result.best.score,
  });
  return result;
}
