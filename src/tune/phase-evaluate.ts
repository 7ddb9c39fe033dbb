import type { IterationEvaluation, SkillEvaluation, TuneIteration } from "../contracts/iteration-state.js";
import { writeJson } from "../runlog/atomic-write.js";
import type { TuneContext } from "./context.js";
import { decideWinner, shouldTerminate, weakestSkill } from "./decisions.js";
import { evaluateSkill } from "./evaluate.js";
import { measureRuns } from "./measure-runs.js";
import { tunePaths } from "./paths.js";
import type { PhaseEnd } from "./phase-execute.js";
import { bestIteration, completeIteration, recordError } from "./progress.js";
import { mean, meanDimensions } from "./score.js";

const tenth = (x: number) => Math.round(x * 10) / 10;

function combine(order: string[], skills: Record<string, SkillEvaluation>): IterationEvaluation {
  const all = order.map((name) => skills[name] as SkillEvaluation);
  if (all.length === 1) return { ...(all[0] as SkillEvaluation) };
  const scores = Object.fromEntries(order.map((name) => [name, (skills[name] as SkillEvaluation).score]));
  const weakest = skills[weakestSkill(scores, order)] as SkillEvaluation;
  const tagged = (pick: (e: SkillEvaluation) => string[] | undefined) =>
    // Stryker disable next-line ArrayDeclaration: equivalent, every evaluation of a skill has its strengths and weaknesses lists
    order.flatMap((name) => (pick(skills[name] as SkillEvaluation) ?? []).map((text) => `${name}: ${text}`));
  const warnings = tagged((e) => (e.warning ? [e.warning] : []));
  return {
    score: tenth(mean(all.map((e) => e.score))),
    rubric_score: tenth(mean(all.map((e) => e.rubric_score ?? 0))),
    dimensions: meanDimensions(all.map((e) => e.dimensions)),
    expectation_pass_rate: mean(all.map((e) => e.expectation_pass_rate)),
    suggestions: weakest.suggestions,
    strengths: tagged((e) => e.strengths),
    weaknesses: tagged((e) => e.weaknesses),
    skill_scores: scores,
    skill_evaluations: skills,
    ...(warnings.length > 0 ? { warning: warnings.join("; ") } : {}),
  };
}

/**
 * Phase 3: the pass rate and the judge's rubric for each skill, the composite score, then keep-the-winner against
 * the best version so far, and the seed's termination check.
 */
export async function evaluatePhase(
  ctx: TuneContext,
  iteration: TuneIteration,
): Promise<PhaseEnd | "finished"> {
  const { state } = ctx;
  const judge = await ctx.evaluator();
  state.evaluator = judge.backend;
  const skills: Record<string, SkillEvaluation> = {};
  let costUsd = 0;
  let fallback = false;
  for (const [i, name] of ctx.order.entries()) {
    ctx.reporter.onPhase?.({ round: iteration.round, phase: "evaluate", skill: name });
    const iterationDir = ctx.at(iteration.execution?.iteration_dirs?.[name] ?? "");
    const measured = await measureRuns(iterationDir);
    if (measured.passRate === undefined) throw new Error(`no graded run in ${iterationDir} to evaluate`);
    const chain =
      state.execution_mode === "chain"
        ? {
            position: i + 1,
            total: ctx.order.length,
            // Past either end of the chain there is no neighbour: undefined.
            upstream: ctx.order[i - 1],
            downstream: ctx.order[i + 1],
          }
        : undefined;
    try {
      const result = await evaluateSkill({
        judge,
        skillName: name,
        skillDir: ctx.at(`${tunePaths.snapshot(iteration.round)}/${name}`),
        measured: { ...measured, passRate: measured.passRate },
        iterationDir,
        ...(state.test_scenario ? { scenario: state.test_scenario } : {}),
        previousScores: state.score_trend,
        ...(chain ? { chain } : {}),
        rawAnswerFile: ctx.at(tunePaths.rawAnswer(iteration.round, name)),
        ...(ctx.options.signal ? { signal: ctx.options.signal } : {}),
      });
      skills[name] = result.evaluation;
      costUsd += result.costUsd;
      fallback ||= result.fallback;
      state.judge_model = result.model;
      if (ctx.budget) ctx.budget.spentUsd += result.costUsd;
    } catch (error) {
      if (ctx.options.signal?.aborted) return "cancelled";
      throw error;
    }
  }
  const evaluation: IterationEvaluation = { ...combine(ctx.order, skills), cost_usd: costUsd };
  // Stryker disable next-line ConditionalExpression: equivalent, an undefined judge_model is left out of the JSON like an absent one
  if (state.judge_model) evaluation.judge_model = state.judge_model;
  evaluation.evaluator = judge.backend;
  await writeJson(ctx.at(tunePaths.evaluation(iteration.round)), evaluation);
  if (evaluation.warning) {
    recordError(state, iteration, `evaluate: ${evaluation.warning}`);
    ctx.reporter.onError?.({ round: iteration.round, phase: "evaluate", message: evaluation.warning });
  }

  const best = bestIteration(state);
  const result = best?.evaluation
    ? decideWinner({ score: best.evaluation.score }, { score: evaluation.score, reliable: !fallback })
    : "baseline";
  iteration.evaluation = evaluation;
  iteration.grading_result = result;
  if (result === "baseline" || result === "won") {
    state.current_best = iteration.version;
    state.best_score = evaluation.score;
  }
  state.latest_score = evaluation.score;
  state.score_trend.push(evaluation.score);
  ctx.reporter.onEvaluated?.({
    round: iteration.round,
    version: iteration.version,
    score: evaluation.score,
    passRate: evaluation.expectation_pass_rate,
    result,
    ...(evaluation.skill_scores ? { skillScores: evaluation.skill_scores } : {}),
    ...(evaluation.warning ? { warning: evaluation.warning } : {}),
  });
  const termination = shouldTerminate(state);
  if (termination.terminate) {
    completeIteration(ctx, iteration);
    state.status = "completed";
    state.termination_reason = termination.reason;
    state.converged = termination.reason === "convergence_detected";
    await ctx.save();
    return "finished";
  }
  iteration.status = "improving";
  await ctx.save();
  return "next";
}
