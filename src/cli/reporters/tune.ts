import { tuneExitText } from "../../contracts/exit-reasons.js";
import type { TuneReporter, TuneResult } from "../../tune/index.js";
import type { Io } from "../io.js";

/** A tune's progress on stderr: what it tunes, each iteration's score, each edit and why it stopped. */
export function tuneProgress(io: Io): TuneReporter {
  return {
    onStart({ tuneDir, resumed, state, estimate, simulated }) {
      if (simulated) io.err("SIMULATED: skillgym sim answers, not a model\n");
      // Stryker disable next-line ArrayDeclaration: equivalent, a tune state's schema requires target_skills or skill_names
      const names = (state.target_skills ?? state.skill_names ?? []).join(
        state.execution_mode === "chain" ? " → " : ", ",
      );
      io.err(
        `${resumed ? "resuming" : "tuning"} ${names} in ${tuneDir}: up to ${state.max_iterations} iterations, threshold ${state.quality_threshold}\n`,
      );
      if (estimate)
        io.err(
          `estimated cost: at most $${estimate.costUsd.toFixed(2)} (${estimate.evalRuns} eval runs, ${estimate.improverRuns} improver runs, ${estimate.judgeCalls} judge calls)\n`,
        );
    },
    onIterationStart: ({ round, maxIterations, version }) =>
      io.err(`iteration ${round}/${maxIterations}: measuring ${version}\n`),
    onEvaluated({ version, score, passRate, result, skillScores, warning }) {
      const skills = skillScores
        ? ` [${Object.entries(skillScores)
            .map(([n, s]) => `${n} ${s}`)
            .join(", ")}]`
        : "";
      io.err(
        `  ${version}: score ${score} (pass rate ${Math.round(passRate * 100)}%)${skills}: ${result}${warning ? ` (warning: ${warning})` : ""}\n`,
      );
    },
    onImproved: ({ targets, rolledBack, error }) =>
      io.err(
        rolledBack
          ? `  edit of ${targets.join(", ")} not kept: ${error}\n`
          : `  edited ${targets.join(", ")}\n`,
      ),
    onError: ({ phase, message }) => io.err(`  ${phase} failed: ${message}\n`),
    onEnd: ({ reason }) => io.err(`stopped: ${reason ? tuneExitText[reason] : "interrupted"}\n`),
  };
}

/** The text a finished tune prints: status, score trend, best version, cost, report and what to apply. */
export function tuneSummaryLines(result: TuneResult, applied: string[] | undefined): string[] {
  const { state } = result;
  const lines: string[] = [];
  if (result.simulated)
    lines.push("SIMULATED: skillgym sim stood in for the model; these scores test the loop, not the skill.");
  const status = result.cancelled
    ? `interrupted; continue with: skillgym tune --resume ${result.tuneDir}`
    : state.termination_reason
      ? `completed: ${tuneExitText[state.termination_reason]}`
      : state.status;
  lines.push(`tune ${result.tuneDir}: ${status}`);
  const trend = state.iterations
    .filter((it) => it.evaluation)
    .map((it) => `${it.version} ${it.evaluation?.score} (${it.grading_result})`);
  if (trend.length > 0) lines.push(`scores: ${trend.join(" → ")}`);
  if (result.best.version) lines.push(`best: ${result.best.version}, ${result.best.score}/100`);
  lines.push(`cost: $${result.costUsd.toFixed(4)}`, `report: ${result.reportFile}`);
  const changed = result.diffs.some((d) => d.diff !== "");
  if (applied)
    lines.push(
      applied.length > 0
        ? `applied to: ${applied.map((n) => result.skillPaths[n]).join(", ")}`
        : "nothing to apply",
    );
  else if (changed && !result.cancelled)
    lines.push(
      `your skill is unchanged; to apply the best version: skillgym tune --resume ${result.tuneDir} --apply`,
    );
  return lines;
}

/** One tune as `--json` prints it. */
export function tuneJson(result: TuneResult, applied: string[] | undefined) {
  return {
    tune_dir: result.tuneDir,
    status: result.state.status,
    cancelled: result.cancelled,
    termination_reason: result.state.termination_reason,
    simulated: result.simulated,
    best_version: result.best.version,
    best_score: result.best.score,
    score_trend: result.state.score_trend,
    iterations: result.state.iterations.map((it) => ({
      version: it.version,
      status: it.status,
      score: it.evaluation?.score ?? null,
      grading_result: it.grading_result ?? null,
    })),
    cost_usd: result.costUsd,
    estimate: result.estimate ?? null,
    report: result.reportFile,
    diff: result.diffs.map((d) => d.diff).join(""),
    applied: applied ?? null,
  };
}
