import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Agent } from "../agents/agent.js";
import type {
  OptimizeExitReason,
  OptimizeImprover,
  OptimizeIteration,
  OptimizeResults,
} from "../contracts/optimize-results.js";
import { SkillgymError } from "../errors.js";
import { type Budget, createBudget } from "../run/budget.js";
import { STORE_DIR } from "../run/options.js";
import { writeJson } from "../runlog/atomic-write.js";
import { checkContextFits, loadContext } from "../triggers/index.js";
import { applyDescription } from "./apply.js";
import { currentIteration, earlierAttempts, repeatOf, stopReason, trainFailures } from "./decide.js";
import { estimateOptimize } from "./estimate.js";
import { type EvaluationSetup, evaluateDescription } from "./evaluate.js";
import { type Proposal, proposeDescription } from "./improve.js";
import { createOptimizeDir, writeOptimizeOutput } from "./output.js";
import { DEFAULT_PATIENCE, type OptimizeOptions, prepareOptimize, unitCostsFor } from "./plan.js";
import { initialResults, resumedResults, withIteration } from "./results-state.js";
import { earlierProposal, loadCheckpoint, resumedOptions, resumeMismatches } from "./resume.js";
import { optimizeScreen } from "./screen.js";

export interface OptimizeResult {
  dir: string;
  resultsFile: string;
  reportFile: string;
  results: OptimizeResults;
  /** What --apply did, or why it did not write. */
  applyNote?: string;
}

const fits = (budget: Budget | undefined, usd: number) => !budget || budget.spentUsd + usd <= budget.maxUsd;

function improverRecord(proposal: Proposal): OptimizeImprover {
  return {
    model: proposal.model,
    asks: proposal.asks,
    cost_usd: proposal.costUsd,
    problems: proposal.problems,
    // An error left undefined is left out of results.json.
    error: proposal.error,
  };
}

// Stryker disable next-line UnaryOperator: equivalent, with no iteration yet no later folder holds a proposal
const nextIteration = (iterations: readonly OptimizeIteration[]) => (iterations.at(-1)?.iteration ?? -1) + 1;

// A resumed optimization may be given new limits; the settings that shape its evaluations were checked unchanged.
function withLimits(results: OptimizeResults, options: OptimizeOptions, patience: number): OptimizeResults {
  const { max_cost_usd: _cost, ...settings } = results.settings;
  return {
    ...results,
    settings: {
      ...settings,
      max_iterations: options.maxIterations,
      patience,
      ...(options.maxCostUsd !== undefined ? { max_cost_usd: options.maxCostUsd } : {}),
    },
  };
}

/**
 * The description optimizer: evaluates the original description on train and test queries, then asks the improver
 * for a better one from the train failures only, evaluates it, and so on; keeps the description with the best test
 * score. results.json and report.html are rewritten after every iteration; `resumeDir` continues an interrupted one.
 */
export async function runOptimize(given: OptimizeOptions): Promise<OptimizeResult> {
  const checkpoint = given.resumeDir !== undefined ? await loadCheckpoint(given.resumeDir) : undefined;
  const options = checkpoint ? resumedOptions(given, checkpoint) : given;
  const prepared = await prepareOptimize(options);
  const { skill, suite } = prepared;
  let agentPromise: Promise<Agent> | undefined;
  const agent = () => {
    agentPromise ??= options.createAgent({ skill, suite });
    return agentPromise;
  };
  const simulatedAgent = (await agent()).simulated;
  // Asked-for replay refuses an agent without it here, before any run; the default turns itself off instead.
  const screening = optimizeScreen(options.screen, await agent());
  if (prepared.conditions.context !== undefined)
    checkContextFits(await agent(), await loadContext(prepared.conditions.context));
  const improver = await options.createImprover({ skill, suite });
  if (checkpoint) {
    const problems = resumeMismatches(checkpoint.results, {
      prepared,
      options,
      simulated: simulatedAgent || improver.simulated,
      improver: { backend: improver.backend, model: improver.model },
    });
    if (problems.length > 0)
      throw new SkillgymError(
        "BAD_INPUT",
        `cannot resume ${checkpoint.file}: it was started with other inputs\n${problems.map((p) => `  ${p}`).join("\n")}`,
        {
          file: checkpoint.file,
          hint: "resume with the same skill, trigger queries and flags, or start a new optimization without --resume",
        },
      );
  }
  const unit = await unitCostsFor(prepared.workspace, {
    agent: simulatedAgent,
    improver: improver.simulated,
  });
  const estimate = estimateOptimize({
    queries: prepared.queries.length,
    runs: options.runs,
    maxIterations: options.maxIterations,
    unit,
  });
  const budget =
    options.maxCostUsd !== undefined ? createBudget(options.maxCostUsd, unit.triggerRunUsd) : undefined;
  const startedAt = options.now?.() ?? new Date();
  const dir = checkpoint?.dir ?? (await createOptimizeDir(prepared.workspace, startedAt));
  const patience = options.patience ?? DEFAULT_PATIENCE;
  let results = checkpoint
    ? withLimits(resumedResults(checkpoint.results, startedAt), options, patience)
    : initialResults({
        prepared,
        options,
        patience,
        estimate,
        simulated: simulatedAgent || improver.simulated,
        improver: { backend: improver.backend, model: improver.model },
        startedAt,
      });
  results = { ...results, screen: screening.setting };
  if (budget) budget.spentUsd = results.cost_usd;
  // On resume, the first iteration to run may have left runs and a proposal behind.
  const resumeFrom = checkpoint ? nextIteration(results.iterations) : undefined;
  options.reporter?.onPlan?.({
    dir,
    train: prepared.split.train.length,
    test: prepared.split.test.length,
    estimate,
    maxCostUsd: options.maxCostUsd,
    simulated: results.simulated,
    ...(checkpoint ? { resumed: { kept: results.iterations.length } } : {}),
  });
  const save = () => writeOptimizeOutput(dir, results);
  await save();

  const setup: EvaluationSetup = {
    skillPath: options.skillPath,
    ...(options.evalsPath ? { evalsPath: options.evalsPath } : {}),
    ...(options.projectRoot ? { projectRoot: options.projectRoot } : {}),
    conditions: prepared.conditions,
    queries: prepared.queries,
    split: prepared.split,
    runs: options.runs,
    threshold: options.threshold,
    concurrency: options.concurrency,
    timeoutSeconds: options.timeoutSeconds,
    ...(options.model ? { model: options.model } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(budget ? { budget } : {}),
    ...(options.triggerReporter ? { reporter: options.triggerReporter } : {}),
    ...(options.store
      ? { store: { ...options.store, dir: options.store.dir ?? join(prepared.workspace, STORE_DIR) } }
      : {}),
    ...(screening.screen ? { screen: screening.screen } : {}),
    agent,
  };
  const evaluationUsd = prepared.queries.length * options.runs * unit.triggerRunUsd;

  const record = async (iteration: OptimizeIteration) => {
    results = withIteration(results, iteration);
    await save();
    options.reporter?.onIterationEnd?.(iteration);
  };

  const evaluate = async (n: number, description: string, proposal?: Proposal) => {
    options.reporter?.onIterationStart?.({ iteration: n, description });
    const evaluation = await evaluateDescription(
      setup,
      join(dir, `iteration-${n}`),
      proposal ? description : undefined,
    );
    await record({
      iteration: n,
      description,
      status: evaluation.stopped ? "interrupted" : "complete",
      ...(proposal ? { improver: improverRecord(proposal) } : {}),
      train: evaluation.train,
      test: evaluation.test,
      trigger_runs: evaluation.triggerRuns,
      ...(evaluation.reusedRuns > 0 ? { reused_runs: evaluation.reusedRuns } : {}),
      cost_usd: evaluation.costUsd + (proposal?.costUsd ?? 0),
      ...(evaluation.replay ? { replay: evaluation.replay } : {}),
    });
    return evaluation.stopped;
  };

  const propose = async (n: number): Promise<Proposal | undefined> => {
    const current = currentIteration(results.iterations)!;
    const earlier = n === resumeFrom ? await earlierProposal(join(dir, `iteration-${n}`)) : undefined;
    if (earlier) {
      if (budget) budget.spentUsd += earlier.costUsd;
      options.reporter?.onProposal?.({ iteration: n, proposal: earlier });
      return earlier;
    }
    let proposal: Proposal;
    try {
      proposal = await proposeDescription(
        improver,
        {
          skillName: skill.name,
          currentDescription: current.description,
          skillBody: skill.body,
          threshold: options.threshold,
          trainFailures: trainFailures(current.train!),
          attempts: earlierAttempts(results.iterations),
        },
        options.signal ? { signal: options.signal } : {},
      );
    } catch (error) {
      if (options.signal?.aborted) return undefined;
      throw error;
    }
    if (budget) budget.spentUsd += proposal.costUsd;
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent, the iteration's folder is new: one left without its proposal was removed
    await mkdir(join(dir, `iteration-${n}`), { recursive: true });
    await writeJson(join(dir, `iteration-${n}`, "improver.json"), proposal);
    options.reporter?.onProposal?.({ iteration: n, proposal });
    return options.signal?.aborted ? undefined : proposal;
  };

  let reason: OptimizeExitReason | undefined;
  try {
    if (!results.iterations.some((it) => it.iteration === 0))
      reason = fits(budget, evaluationUsd) ? await evaluate(0, skill.description) : "budget";
    for (let n = nextIteration(results.iterations); reason === undefined; n++) {
      reason = stopReason(results.iterations, { maxIterations: options.maxIterations, patience });
      if (reason !== undefined) break;
      if (options.signal?.aborted) reason = "cancelled";
      else if (!fits(budget, evaluationUsd + unit.improverCallUsd)) reason = "budget";
      if (reason !== undefined) break;
      const proposal = await propose(n);
      if (!proposal) {
        reason = "cancelled";
        break;
      }
      const previous = currentIteration(results.iterations)!;
      const description = proposal.description;
      const earlier = description === undefined ? undefined : repeatOf(results.iterations, description);
      if (description === undefined || earlier) {
        await record({
          iteration: n,
          description: description ?? previous.description,
          status: description === undefined ? "improver_failed" : "complete",
          improver: improverRecord(proposal),
          ...(earlier ? { repeat_of: earlier.iteration } : {}),
          train: earlier?.train ?? null,
          test: earlier?.test ?? null,
          trigger_runs: 0,
          cost_usd: proposal.costUsd,
        });
        continue;
      }
      reason = await evaluate(n, description, proposal);
    }
  } catch (error) {
    results = {
      ...results,
      status: "interrupted",
      exit_reason: "error",
      error: error instanceof Error ? error.message : String(error),
      finished_at: new Date().toISOString(),
    };
    await save();
    throw error;
  }

  results = {
    ...results,
    status: reason === "cancelled" ? "interrupted" : "complete",
    exit_reason: reason,
    finished_at: new Date().toISOString(),
  };
  await save();
  options.reporter?.onStop?.({ reason });
  const applyNote = options.apply ? await apply() : undefined;
  return {
    dir,
    resultsFile: join(dir, "results.json"),
    reportFile: join(dir, "report.html"),
    results,
    ...(applyNote ? { applyNote } : {}),
  };

  async function apply(): Promise<string> {
    if (results.status !== "complete") return "not applied: the optimization was interrupted";
    // With no best iteration, the best description is the original.
    if (results.best_description === results.original_description)
      return `not applied: the original description scored best on test; ${skill.skillMdPath} is unchanged`;
    await applyDescription(skill.skillMdPath, results.best_description, results.original_description);
    results = { ...results, applied: true };
    await save();
    return `applied: wrote the description of iteration ${results.best_iteration} into ${skill.skillMdPath}`;
  }
}
