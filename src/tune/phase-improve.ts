import { readdir, readFile } from "node:fs/promises";
import { relative, sep } from "node:path";
import type { SkillEvaluation, TuneIteration } from "../contracts/iteration-state.js";
import { reserveRun, settleRun } from "../run/budget.js";
import { RESERVED_OUTPUT_FILES } from "../workspace/index.js";
import type { TuneContext } from "./context.js";
import { weakestSkill } from "./decisions.js";
import { improveSkill } from "./improve.js";
import { buildImprovePrompt, type ImprovePromptInput } from "./improve-prompt.js";
import { measureRuns } from "./measure-runs.js";
import { tunePaths } from "./paths.js";
import type { PhaseEnd } from "./phase-execute.js";
import { bestIteration, completeIteration, recordError, versionDirs } from "./progress.js";

async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => relative(dir, `${e.parentPath}${sep}${e.name}`).split(sep).join("/"))
      .filter((p) => !RESERVED_OUTPUT_FILES.includes(p))
      .sort();
  } catch {
    return [];
  }
}

async function readText(file: string): Promise<string> {
  return readFile(file, "utf8").catch(() => "");
}

// Edits already tried from the best version that did not win, so the improver tries something else.
async function rejectedEdits(ctx: TuneContext, best: TuneIteration): Promise<ImprovePromptInput["rejected"]> {
  const rejected: ImprovePromptInput["rejected"] = [];
  for (const it of ctx.state.iterations) {
    if (it.parent !== best.version || !it.evaluation) continue;
    if (it.grading_result !== "lost" && it.grading_result !== "tie") continue;
    const producer = ctx.state.iterations[it.round - 2];
    const file = producer?.improvement?.changes_file;
    rejected.push({
      version: it.version,
      score: it.evaluation.score,
      changes: (file ? await readText(ctx.at(file)) : "") || "(no notes)",
    });
  }
  return rejected.slice(-3);
}

function chainInterface(ctx: TuneContext, best: TuneIteration, target: string) {
  if (ctx.state.execution_mode !== "chain") return undefined;
  const i = ctx.order.indexOf(target);
  // Past either end of the chain there is no neighbour: undefined.
  const upstream = ctx.order[i - 1];
  const downstream = ctx.order[i + 1];
  const artifacts = (name: string | undefined) =>
    best.execution?.chain?.find((s) => s.skill_name === name)?.artifacts_dir;
  return { upstream, downstream, readsDir: artifacts(upstream), writesDir: artifacts(target) };
}

/**
 * Phase 4: an agent edits a copy of the best version (the weakest skill of a chain) from its evaluation. A failed
 * or invalid edit is rolled back: the next iteration measures the best version again.
 */
export async function improvePhase(ctx: TuneContext, iteration: TuneIteration): Promise<PhaseEnd> {
  const best = bestIteration(ctx.state);
  if (!best?.evaluation) throw new Error("the improve phase needs a measured best version");
  // A single skill is the weakest of one, and its evaluation has no per-skill part.
  const target = weakestSkill(best.evaluation.skill_scores ?? {}, ctx.order);
  ctx.reporter.onPhase?.({ round: iteration.round, phase: "improve", skill: target });
  const evaluation: SkillEvaluation = best.evaluation.skill_evaluations?.[target] ?? best.evaluation;
  const measured = await measureRuns(ctx.at(best.execution?.iteration_dirs?.[target] ?? ""));
  const link = chainInterface(ctx, best, target);
  const prompt = buildImprovePrompt({
    skillName: target,
    round: iteration.round,
    version: best.version,
    score: evaluation.score,
    passRate: evaluation.expectation_pass_rate,
    dimensions: evaluation.dimensions,
    suggestions: evaluation.suggestions,
    strengths: evaluation.strengths ?? [],
    weaknesses: evaluation.weaknesses ?? [],
    failed: measured.evals.flatMap((e) => e.failed),
    rejected: await rejectedEdits(ctx, best),
    ...(link
      ? {
          chain: {
            ...(link.upstream ? { upstream: link.upstream } : {}),
            ...(link.downstream ? { downstream: link.downstream } : {}),
            reads: link.readsDir ? await filesUnder(ctx.at(link.readsDir)) : [],
            writes: link.writesDir ? await filesUnder(ctx.at(link.writesDir)) : [],
          },
        }
      : {}),
    changesFile: tunePaths.changesName(iteration.round),
  });
  const dirs = versionDirs(ctx, best);
  const budget = ctx.budget;
  const result = await improveSkill({
    agent: await ctx.agent(),
    skillName: target,
    sourceDir: ctx.at(dirs[target] as string),
    outDir: ctx.at(tunePaths.improved(iteration.round, target)),
    changesFile: ctx.at(tunePaths.changes(iteration.round)),
    changesName: tunePaths.changesName(iteration.round),
    transcriptDir: ctx.at(tunePaths.improver(iteration.round)),
    prompt,
    timeoutMs: ctx.options.timeoutSeconds * 1000,
    ...(ctx.options.model ? { model: ctx.options.model } : {}),
    ...(ctx.options.signal ? { signal: ctx.options.signal } : {}),
    mayStart: () => reserveRun(budget),
    onAttemptCost: (cost) => settleRun(budget, cost),
  });
  if (result.status === "cancelled") return "cancelled";
  const improved = result.status === "improved";
  const common = {
    target_skills: [target],
    from_version: best.version,
    attempts: result.attempts,
    cost_usd: result.costUsd,
  };
  if (improved) {
    const notes = await readText(ctx.at(tunePaths.changes(iteration.round)));
    const summary = notes
      .split("\n")
      .map((line) => line.replace(/^[-*#\s]+/, "").trim())
      .find((line) => line !== "");
    iteration.improvement = {
      ...common,
      changes_file: tunePaths.changes(iteration.round),
      ...(summary ? { summary: summary.slice(0, 200) } : {}),
      rolled_back: false,
      next_candidate: { ...dirs, [target]: tunePaths.improved(iteration.round, target) },
    };
  } else {
    const error = result.status === "failed" ? result.error : "stopped: --max-cost reached";
    iteration.improvement = { ...common, rolled_back: true, next_candidate: dirs, error };
    if (result.status === "failed") {
      recordError(ctx.state, iteration, `improve: ${error}`);
      ctx.reporter.onError?.({ round: iteration.round, phase: "improve", message: error });
    }
  }
  ctx.reporter.onImproved?.({
    round: iteration.round,
    targets: [target],
    rolledBack: !improved,
    ...(iteration.improvement.error ? { error: iteration.improvement.error } : {}),
  });
  completeIteration(ctx, iteration);
  await ctx.save();
  return result.status === "budget" ? "budget" : "next";
}
