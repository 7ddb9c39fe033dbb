import { dirname } from "node:path";
import { optimizeExitText } from "../../contracts/exit-reasons.js";
import type { OptimizeResults } from "../../contracts/optimize-results.js";
import {
  type OptimizeEstimate,
  type OptimizePlan,
  type OptimizeReporter,
  replayDecided,
} from "../../optimize/index.js";
import type { Io } from "../io.js";

const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? "n/a" : `${Math.round(x * 100)}%`;
const usd = (x: number) => `$${x.toFixed(x > 0 && x < 0.01 ? 4 : 2)}`;
const clip = (text: string, n = 90) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/** What the loop may run and cost at most, against --max-cost. */
export function estimateLine(
  estimate: OptimizeEstimate,
  maxCost: number | undefined,
  simulated: boolean,
): string {
  const runs =
    `up to ${estimate.evaluations} evaluations (the original + ${estimate.evaluations - 1} proposals) × ` +
    `${estimate.queries} queries × ${estimate.runs} runs = ` +
    `${estimate.triggerRuns} trigger runs, plus up to ${estimate.improverCalls} improver calls (twice that with re-asks)`;
  const cost = simulated
    ? "cost $0 (simulated)"
    : `estimated cost at most about ${usd(estimate.costUsd)} (${usd(estimate.unit.triggerRunUsd)} per trigger run, ` +
      `${usd(estimate.unit.improverCallUsd)} per improver call: ${estimate.unit.source})`;
  const limit =
    maxCost === undefined
      ? ""
      : estimate.costUsd > maxCost
        ? `; --max-cost ${usd(maxCost)} is lower: the loop stops before an iteration would cross it`
        : `; --max-cost ${usd(maxCost)}`;
  return `${runs}\n${cost}${limit}`;
}

/** The optimization's progress on stderr: the plan, each proposal and each iteration's scores. */
export function optimizeProgress(io: Io): OptimizeReporter {
  return {
    onPlan(info) {
      const mode = info.simulated ? " [SIMULATED: skillgym sim answers, not a model]" : "";
      const resumed = info.resumed
        ? `resuming ${info.dir}: ${info.resumed.kept} finished iterations kept, finished trigger runs reused${mode}\n`
        : `optimizing into ${info.dir}${mode}\n`;
      io.err(
        resumed +
          `split: ${info.train} train queries, ${info.test} held-out test queries\n` +
          `${estimateLine(info.estimate, info.maxCostUsd, info.simulated)}\n` +
          `live report: ${info.dir}/report.html\n`,
      );
    },
    onIterationStart(info) {
      io.err(`\niteration ${info.iteration}: ${clip(info.description)}\n`);
    },
    onProposal({ iteration, proposal }) {
      if (proposal.problems.length > 0) io.err(`  improver re-asked: ${proposal.problems.join("; ")}\n`);
      if (proposal.error) io.err(`  iteration ${iteration}: ${proposal.error}\n`);
    },
    onIterationEnd(it) {
      const repeat = it.repeat_of !== undefined ? ` (same as iteration ${it.repeat_of}; not run again)` : "";
      if (it.status === "improver_failed") return;
      io.err(
        `  iteration ${it.iteration}: train ${pct(it.train?.score)} (${it.train?.summary.passed ?? 0}/${it.train?.summary.total ?? 0} passed), ` +
          `test ${pct(it.test?.score)} (${it.test?.summary.passed ?? 0}/${it.test?.summary.total ?? 0} passed)${repeat}` +
          (it.replay ? `; ${replayDecided(it.replay)}` : "") +
          `${it.status === "interrupted" ? " — interrupted" : ""}\n`,
      );
    },
  };
}

/** `optimize --dry-run`: what replay would do with the train runs, or why it would not. */
export function optimizeScreenPlanLine(
  plan: Pick<OptimizePlan, "screen" | "screenOff" | "screenTestFirstRuns">,
): string {
  const f = plan.screen;
  if (!f) return `replay off (${plan.screenOff ?? "--screen none"}): every trigger run is an agent run`;
  return (
    `replay on the ${plan.screenTestFirstRuns ? "train runs and each test query's first run" : "train runs"}: ` +
    `${f.capture_runs} capture runs (one per description, unless stored), ${f.replay_requests} replay requests, ` +
    `up to ${f.agent_runs_up_to} agent runs (the test runs, and the runs replay leaves undecided)`
  );
}

/** How replay decided the train runs of an optimization, over its iterations; undefined when it was not asked. */
export function optimizeScreenLine(results: OptimizeResults): string | undefined {
  const screen = results.screen;
  if (!screen) return undefined;
  if (screen.kind === "none")
    return `replay off (${screen.off ?? "--screen none"}): the agent made every trigger run`;
  const made = results.iterations.flatMap((it) => (it.replay ? [it.replay] : []));
  const sum = (count: (r: (typeof made)[number]) => number | undefined) =>
    made.reduce((n, r) => n + (count(r) ?? 0), 0);
  const onTest = made.some((r) => r.test_first_runs !== undefined);
  const decided = replayDecided({
    train_runs: sum((r) => r.train_runs),
    decided_by_replay: sum((r) => r.decided_by_replay),
    // Stryker disable next-line BooleanLiteral: equivalent, replayDecided does not read captured
    captured: false,
    ...(onTest
      ? {
          test_first_runs: sum((r) => r.test_first_runs),
          test_decided_by_replay: sum((r) => r.test_decided_by_replay),
        }
      : {}),
  });
  const replayed = sum((r) => r.decided_by_replay) + sum((r) => r.test_decided_by_replay);
  const captures = made.filter((r) => r.captured).length;
  const runs = results.iterations.reduce((n, it) => n + it.trigger_runs, 0);
  const off = [...new Set(made.flatMap((r) => (r.off ? [r.off] : [])))];
  return (
    `${decided}; agent runs: ${runs - replayed + captures} ` +
    `(${runs - replayed} trigger runs, ${captures} capture${captures === 1 ? "" : "s"}); ` +
    (onTest ? "every test verdict holds the agent's runs" : "test runs are the agent's") +
    (off.length > 0 ? `; replay off: ${off.join("; ")}` : "")
  );
}

/** The text a finished optimization prints: why it stopped, the original and the best description, the files. */
export function optimizeSummary(
  results: OptimizeResults,
  files: { results: string; report: string },
  applyNote?: string,
) {
  const original = results.iterations.find((it) => it.iteration === 0);
  const best = results.iterations.find((it) => it.iteration === results.best_iteration);
  const lines = [
    results.simulated
      ? "SIMULATED: skillgym sim stood in for the agent and the improver; these scores test the harness, not the description."
      : "",
    `stopped: ${optimizeExitText[results.exit_reason]} after ${results.iterations.length} iterations; cost ${usd(results.cost_usd)}`,
    `original (test ${pct(original?.test?.score)}): ${results.original_description}`,
    `best, iteration ${results.best_iteration ?? "—"} (test ${pct(best?.test?.score)}, train ${pct(best?.train?.score)}): ${results.best_description}`,
    results.test_gain ? `best vs original: ${results.test_gain.note}` : "",
    optimizeScreenLine(results) ?? "",
    applyNote ?? "SKILL.md unchanged (use --apply to write the best description into it)",
    results.status === "interrupted"
      ? `continue with: skillgym optimize ${results.skill_path} --resume ${dirname(files.results)}`
      : "",
    `results: ${files.results}`,
    `report:  ${files.report}`,
  ];
  return `${lines.filter(Boolean).join("\n")}\n`;
}
