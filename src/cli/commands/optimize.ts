import { dirname } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import type { OptimizeResults } from "../../contracts/optimize-results.js";
import type { JudgeBackend } from "../../judge/judge.js";
import {
  type OptimizeEstimate,
  type OptimizeOptions,
  type OptimizeReporter,
  planOptimize,
  runOptimize,
} from "../../optimize/index.js";
import {
  type AgentFlags,
  checkCredentials,
  createSetup,
  judgeBackend,
  withAgentOptions,
} from "../agent-setup.js";
import type { Io } from "../io.js";
import { fraction, interruptSignal, nonNegativeInt, positiveInt, positiveNumber } from "../options.js";
import { wallTimeLine } from "../result-lines.js";
import { triggerReporter } from "../trigger-progress.js";

interface OptimizeFlags extends AgentFlags {
  evals?: string;
  workspace?: string;
  projectRoot?: string;
  maxIterations: number;
  holdout: number;
  runs: number;
  threshold: number;
  seed: number;
  concurrency: number;
  timeout: number;
  model?: string;
  improver?: JudgeBackend;
  improverModel?: string;
  improverBaseUrl?: string;
  maxCost?: number;
  apply?: boolean;
  dryRun?: boolean;
  json?: boolean;
  resume?: string;
}

// Flags whose value --resume takes from results.json unless they are given again, by option name.
const resumedFlags = {
  maxIterations: "maxIterations",
  holdout: "holdout",
  runs: "runs",
  threshold: "threshold",
  seed: "seed",
  model: "model",
  maxCost: "maxCostUsd",
} as const;

const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? "n/a" : `${Math.round(x * 100)}%`;
const usd = (x: number) => `$${x.toFixed(x > 0 && x < 0.01 ? 4 : 2)}`;
const clip = (text: string, n = 90) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

function integer(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n)) throw new InvalidArgumentError("expected a whole number");
  return n;
}

function estimateLine(estimate: OptimizeEstimate, maxCost: number | undefined, simulated: boolean): string {
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

function optimizeReporter(io: Io): OptimizeReporter {
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
          `${it.status === "interrupted" ? " — interrupted" : ""}\n`,
      );
    },
  };
}

const reasons: Record<OptimizeResults["exit_reason"], string> = {
  running: "running",
  train_perfect: "every train query passes",
  max_iterations: "reached --max-iterations",
  test_plateau: "the test score stopped moving",
  improver_failed: "the improver gave no usable description twice in a row",
  budget: "the next iteration would cross --max-cost",
  cancelled: "cancelled",
  error: "an error stopped it",
};

function summaryText(
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
    `stopped: ${reasons[results.exit_reason]} after ${results.iterations.length} iterations; cost ${usd(results.cost_usd)}`,
    `original (test ${pct(original?.test?.score)}): ${results.original_description}`,
    `best, iteration ${results.best_iteration ?? "—"} (test ${pct(best?.test?.score)}, train ${pct(best?.train?.score)}): ${results.best_description}`,
    results.test_gain ? `best vs original: ${results.test_gain.note}` : "",
    applyNote ?? "SKILL.md unchanged (use --apply to write the best description into it)",
    results.status === "interrupted"
      ? `continue with: skillgym optimize ${results.skill_path} --resume ${dirname(files.results)}`
      : "",
    `results: ${files.results}`,
    `report:  ${files.report}`,
  ];
  return `${lines.filter(Boolean).join("\n")}\n`;
}

export function registerOptimize(program: Command, io: Io): void {
  withAgentOptions(
    program
      .command("optimize")
      .description("improve the skill's description against held-out trigger queries")
      .argument("<skill>", "the skill folder"),
  )
    .option("--evals <path>", "the eval suite folder or triggers.json (default: discovered)")
    .option(
      "--max-iterations <n>",
      "improver proposals at most (the original is evaluated on top)",
      nonNegativeInt,
      5,
    )
    .option("--holdout <f>", "share of each class held out as test queries", fraction, 0.4)
    .option("--runs <n>", "runs per query and description", positiveInt, 3)
    .option("--threshold <t>", "trigger rate that counts as triggering", fraction, 0.5)
    .option("--seed <n>", "seed of the train/test split", integer, 42)
    .option("--concurrency <n>", "runs at once", positiveInt, 8)
    .option("--timeout <seconds>", "per-run limit", positiveInt, 180)
    .option("--model <model>", "the agent's model")
    .option(
      "--improver <backend>",
      "who proposes descriptions: claude-code, anthropic, openai, sim",
      judgeBackend,
    )
    .option("--improver-model <model>", "the improver's model (required for openai)")
    .option("--improver-base-url <url>", "the improver API's base URL (anthropic, openai)")
    .option("--max-cost <usd>", "stop before an iteration would cross this spending limit", positiveNumber)
    .option(
      "--workspace <dir>",
      "where optimize-<timestamp>/ is written (default: <skill-parent>/<name>-workspace)",
    )
    .option("--project-root <dir>", "the project the skill belongs to (for eval discovery)")
    .option("--apply", "write the best description into SKILL.md (only the description changes)")
    .option(
      "--resume <dir>",
      "continue an interrupted optimization in this optimize-<timestamp>/ folder; finished evaluations are not run again",
    )
    .option("--dry-run", "print the split and the cost estimate; start nothing")
    .option("--json", "print results.json")
    .action(async (skillPath: string, flags: OptimizeFlags, command: Command) => {
      const setup = createSetup({
        ...flags,
        ...(flags.improver ? { judge: flags.improver } : {}),
        ...(flags.improverModel ? { judgeModel: flags.improverModel } : {}),
        ...(flags.improverBaseUrl ? { judgeBaseUrl: flags.improverBaseUrl } : {}),
      });
      const interrupt = interruptSignal(() =>
        io.err("\ncancelling: results so far are kept (continue with --resume); Ctrl-C again to quit now\n"),
      );
      const triggerProgress = triggerReporter(io, {
        spending: { usd: 0, ...(flags.maxCost !== undefined ? { maxUsd: flags.maxCost } : {}) },
      });
      const options: OptimizeOptions = {
        skillPath,
        ...(flags.evals ? { evalsPath: flags.evals } : {}),
        ...(flags.projectRoot ? { projectRoot: flags.projectRoot } : {}),
        ...(flags.workspace ? { workspace: flags.workspace } : {}),
        maxIterations: flags.maxIterations,
        holdout: flags.holdout,
        runs: flags.runs,
        threshold: flags.threshold,
        seed: flags.seed,
        concurrency: flags.concurrency,
        timeoutSeconds: flags.timeout,
        ...(flags.model ? { model: flags.model } : {}),
        ...(flags.maxCost !== undefined ? { maxCostUsd: flags.maxCost } : {}),
        ...(flags.apply ? { apply: true } : {}),
        ...(flags.resume
          ? {
              resumeDir: flags.resume,
              explicit: Object.entries(resumedFlags).flatMap(([flag, option]) =>
                command.getOptionValueSource(flag) === "cli" ? [option] : [],
              ),
            }
          : {}),
        signal: interrupt.signal,
        reporter: optimizeReporter(io),
        triggerReporter: triggerProgress,
        createAgent: ({ suite }) => setup.agent(suite.dir),
        createImprover: ({ suite }) => setup.judge(suite.dir),
      };
      try {
        if (flags.dryRun) {
          const plan = await planOptimize(options, flags.simulate === true);
          if (!flags.json)
            io.out(
              `plan for ${plan.skill}: ${plan.train.length} train queries, ${plan.test.length} test queries (held out)\n` +
                `${estimateLine(plan.estimate, flags.maxCost, flags.simulate === true)}\n${wallTimeLine(plan)}\n`,
            );
          // A real run without a login fails here, as it would before its first run (exit 3).
          const credentials = flags.simulate
            ? "credentials: none needed (simulated)"
            : await checkCredentials(
                setup,
                { ...flags, ...(flags.improver ? { judge: flags.improver } : {}) },
                {
                  judge: "improver",
                },
              );
          if (flags.json) io.out(`${JSON.stringify(plan, null, 2)}\n`);
          else io.out(`${credentials}\nnothing was started\n`);
          return;
        }
        const result = await runOptimize(options);
        triggerProgress.close();
        if (flags.json) io.out(`${JSON.stringify(result.results, null, 2)}\n`);
        else
          io.out(
            summaryText(
              result.results,
              { results: result.resultsFile, report: result.reportFile },
              result.applyNote,
            ),
          );
        if (result.results.status === "interrupted") io.setExitCode(130);
      } finally {
        triggerProgress.close();
        interrupt.dispose();
        await setup.close();
      }
    });
}
