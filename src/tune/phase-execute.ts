import { dirname, join } from "node:path";
import type { ChainStep, TuneIteration } from "../contracts/iteration-state.js";
import { judgeGrader } from "../grade/judge-grader.js";
import { STORE_DIR } from "../run/options.js";
import { stageChainInputs } from "./chain-inputs.js";
import type { TuneContext } from "./context.js";
import { executeSkill } from "./execute-skill.js";
import { tunePaths, tuneRelative } from "./paths.js";
import { recordError } from "./progress.js";

export type PhaseEnd = "next" | "cancelled" | "budget";

/** Phase 2: each skill's eval suite against the snapshot; in a chain, each one's outputs are the next one's inputs. */
export async function executePhase(ctx: TuneContext, iteration: TuneIteration): Promise<PhaseEnd> {
  const started = ctx.now();
  const chain = ctx.state.execution_mode === "chain";
  const steps: ChainStep[] = [];
  const iterationDirs: Record<string, string> = {};
  let upstreamOutputs: string | undefined;
  let runs = 0;
  let errored = 0;
  let costUsd = 0;
  let failure: string | undefined;
  const signal = ctx.options.signal;
  // One store for every round (and every tune of this workspace): a version measured before is served from it.
  const request = ctx.options.store;
  const store = request ? { ...request, dir: request.dir ?? join(dirname(ctx.dir), STORE_DIR) } : undefined;
  for (const [i, name] of ctx.order.entries()) {
    ctx.reporter.onPhase?.({ round: iteration.round, phase: "execute", skill: name });
    let evalsPath = ctx.evalsPathOf(name);
    if (chain && i > 0) {
      if (!upstreamOutputs) {
        failure = `"${name}" has no inputs: its upstream skill produced no graded run`;
        break;
      }
      evalsPath = await stageChainInputs({
        suiteDir: dirname(evalsPath),
        evalsFile: evalsPath,
        upstreamOutputs,
        dest: ctx.at(tunePaths.chainInputs(iteration.round, name)),
      });
    }
    const result = await executeSkill({
      skillDir: ctx.at(`${tunePaths.snapshot(iteration.round)}/${name}`),
      evalsPath,
      workspace: ctx.at(tunePaths.execution(iteration.round, name)),
      runs: ctx.runs,
      concurrency: ctx.options.concurrency,
      timeoutSeconds: ctx.options.timeoutSeconds,
      ...(ctx.options.outputLimits ? { outputLimits: ctx.options.outputLimits } : {}),
      ...(ctx.options.model ? { model: ctx.options.model } : {}),
      ...(ctx.options.retry ? { retry: ctx.options.retry } : {}),
      ...(signal ? { signal } : {}),
      ...(ctx.options.runReporter ? { reporter: ctx.options.runReporter } : {}),
      ...(ctx.budget ? { budget: ctx.budget } : {}),
      ...(store ? { store } : {}),
      ...(ctx.options.onGradingError ? { onGradingError: ctx.options.onGradingError } : {}),
      createAgent: () => ctx.agent(),
      createGrader: async () => judgeGrader(await ctx.judge(), signal),
    });
    costUsd += result.costUsd;
    if (result.status === "cancelled") return "cancelled";
    if (result.status === "budget") return "budget";
    if (result.status === "failed") {
      steps.push({ skill_name: name, status: "failed", error: result.error });
      iterationDirs[name] = tuneRelative(ctx.dir, result.iterationDir);
      failure = `${name}: ${result.error}`;
      break;
    }
    iterationDirs[name] = tuneRelative(ctx.dir, result.iterationDir);
    runs += result.measured.runs;
    errored += result.measured.errored;
    upstreamOutputs = result.measured.evals.find((e) => e.outputsDir !== undefined)?.outputsDir;
    steps.push({
      skill_name: name,
      status: "completed",
      ...(upstreamOutputs ? { artifacts_dir: tuneRelative(ctx.dir, upstreamOutputs) } : {}),
    });
  }
  const finished = ctx.now();
  const single = ctx.order.length === 1 ? iterationDirs[ctx.order[0] as string] : undefined;
  iteration.execution = {
    started_at: started.toISOString(),
    finished_at: finished.toISOString(),
    ...(single ? { iteration_dir: single } : {}),
    iteration_dirs: iterationDirs,
    runs,
    errored_runs: errored,
    duration_seconds: (finished.getTime() - started.getTime()) / 1000,
    cost_usd: costUsd,
    ...(chain ? { chain: steps } : {}),
    ...(failure ? { error: failure } : {}),
  };
  if (failure) {
    iteration.status = "failed";
    iteration.finished_at = finished.toISOString();
    recordError(ctx.state, iteration, `execute: ${failure}`);
    ctx.reporter.onError?.({ round: iteration.round, phase: "execute", message: failure });
  } else iteration.status = "evaluating";
  await ctx.save();
  return "next";
}
