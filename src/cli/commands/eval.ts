import type { Command } from "commander";
import { buildBenchmark, noiseSpreadFor, readIteration } from "../../bench/index.js";
import type { Benchmark } from "../../contracts/benchmark.js";
import { ExitCode } from "../../errors.js";
import { gradingHooks, judgeGrader } from "../../grade/index.js";
import { planEvalsWithStore, savingsOf } from "../../pipeline/index.js";
import { runEvals } from "../../run/index.js";
import type { RunRecord } from "../../run/run-record.js";
import type { Suite } from "../../suite/index.js";
import {
  type AgentFlags,
  adaptiveRequest,
  createSetup,
  type EvalFlags,
  type JudgeFlags,
  outputLimitsOf,
  withAgentOptions,
  withEvalOptions,
  withJudgeOptions,
} from "../agent-setup.js";
import { type CiFlags, reportToCi, withJunitOption, withShardOption } from "../ci-flags.js";
import type { Io } from "../io.js";
import { interruptSignal, modelsOf } from "../options.js";
import { costLine } from "../reporters/cost-line.js";
import { storePlanLines } from "../reporters/dry-run.js";
import { evalCounts, evalSummaryText } from "../reporters/eval-summary.js";
import { terminalReporter } from "../reporters/run-progress.js";
import { shardSummaryLine } from "../reporters/shard-line.js";
import { type StoreFlags, storeRequest, withStoreOptions } from "../store-flags.js";
import { runSeveralAgents } from "./run-agents.js";

interface EvalCommandFlags extends AgentFlags, JudgeFlags, EvalFlags, StoreFlags, CiFlags {
  grade: boolean;
  resume?: boolean;
  keepWorkspaces?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

async function benchmarkOf(iterationDir: string, effectFloor: number): Promise<Benchmark> {
  const noiseSpread = await noiseSpreadFor(iterationDir);
  // No noise.json: an undefined spread, which buildBenchmark reads as none.
  return buildBenchmark(await readIteration(iterationDir), { effectFloor, noiseSpread });
}

// Every run failed to start or to authenticate: the agent could not be run at all (exit 3).
function agentNeverRan(records: RunRecord[]): boolean {
  const ran = records.filter((r) => !r.skipped);
  return ran.length > 0 && ran.every((r) => r.outcome === "crash" || r.outcome === "auth_error");
}

export function registerEval(program: Command, io: Io): void {
  withJunitOption(
    withShardOption(
      withStoreOptions(
        withAgentOptions(
          withJudgeOptions(
            withEvalOptions(
              program
                .command("eval")
                .description(
                  "run the skill's artifact evals with the skill and a baseline, in isolated workspaces",
                )
                .argument("<skill>", "the skill folder"),
              1,
              true,
            ),
          ),
        ),
      ),
    ),
  )
    .option("--resume", "continue the latest iteration even if its plan differs")
    .option("--keep-workspaces", "keep each run's temporary workspace for inspection")
    .option("--no-grade", "record the runs without grading them")
    .option("--dry-run", "say what the result store serves and what the rest costs; start no agent")
    .option("--json", "print the result as JSON")
    .action(async (skillPath: string, flags: EvalCommandFlags) => {
      const reporter = terminalReporter(io);
      const setup = createSetup(flags);
      const interrupt = interruptSignal(() =>
        io.err("\ncancelling: finished runs are kept; Ctrl-C again to quit now\n"),
      );
      const grading = {
        reporter,
        createGrader: async () => judgeGrader(await setup.judge(), interrupt.signal),
        signal: interrupt.signal,
        onError: (runDir: string, error: unknown) =>
          io.err(
            `  grading failed for ${runDir}: ${error instanceof Error ? error.message : String(error)}\n`,
          ),
        onGraded: (runDir: string) => io.err(`  graded ${runDir} (its grading had not finished)\n`),
      };
      const models = modelsOf(flags);
      try {
        const options = {
          skillPath,
          ...(flags.evals ? { evalsPath: flags.evals } : {}),
          ...(flags.workspace ? { workspace: flags.workspace } : {}),
          runs: flags.runs,
          baseline: flags.baseline,
          concurrency: flags.concurrency,
          timeoutSeconds: flags.timeout,
          ...outputLimitsOf(flags),
          ...(flags.only ? { only: flags.only } : {}),
          // The one --model, or undefined (the agent's default); runSeveralAgents gives each of several its own.
          model: models[0],
          ...(flags.projectRoot ? { projectRoot: flags.projectRoot } : {}),
          ...(flags.resume ? { resume: true } : {}),
          ...(flags.keepWorkspaces ? { keepWorkspaces: true } : {}),
          store: storeRequest(flags),
          ...(flags.shard ? { shard: flags.shard } : {}),
          ...adaptiveRequest(flags),
          signal: interrupt.signal,
          reporter,
          createAgent: async ({ suite }: { suite: Suite }) => {
            // A judge that cannot be had stops the command before any run starts.
            if (flags.grade && suite.evals.some((e) => e.expectations.length > 0)) await setup.judge(suite);
            return setup.agent(suite);
          },
        };
        if (models.length > 1) {
          // Each model's evals into one iteration, as `run --model a,b` runs them, with no trigger stage.
          // Stryker disable next-line StringLiteral: equivalent, --agent defaults to claude-code: the fallback is never taken
          await runSeveralAgents(io, { agents: [flags.agent ?? "claude-code"], models }, flags, setup, {
            ...options,
            stage: "evals",
            grade: flags.grade,
            effectFloor: flags.effectFloor,
            gates: {},
            triggerRuns: 1,
            threshold: 0.5,
            triggerTimeoutSeconds: flags.timeout,
            createGrader: grading.createGrader,
            onGradingError: grading.onError,
            onGraded: grading.onGraded,
          });
          return;
        }
        if (flags.dryRun) {
          const plan = await planEvalsWithStore(options, flags.grade, flags.simulate === true);
          io.out(
            flags.json
              ? `${JSON.stringify(plan, null, 2)}\n`
              : `${storePlanLines(plan).join("\n")}\nnothing was started\n`,
          );
          return;
        }
        const summary = await runEvals({ ...options, ...(flags.grade ? gradingHooks(grading) : {}) });
        reporter.close();
        const counts = evalCounts(summary.records);
        const savings = savingsOf(summary.records);
        // The pass rates of the gradings just written; benchmark.json is left to `skillgym bench`.
        const benchmark: Benchmark | undefined = flags.grade
          ? await benchmarkOf(summary.iterationDir, flags.effectFloor)
          : undefined;
        if (flags.json) {
          io.out(
            `${JSON.stringify({ iteration_dir: summary.iterationDir, iteration: summary.iteration, resumed: summary.resumed, simulated: summary.simulated, sim_script: summary.simScript, cancelled: summary.cancelled, ...counts, savings: { reused_runs: savings.reused, ran_runs: savings.ran, saved_usd: savings.savedUsd }, ...(flags.fresh ? { store_read: false } : {}), pass_rate: benchmark?.run_summary, statistics: benchmark?.statistics }, null, 2)}\n`,
          );
        } else {
          if (flags.shard) io.out(`${shardSummaryLine(flags.shard)}\n`);
          io.out(evalSummaryText(summary, counts, benchmark));
          // What the result store saved, in the words `run` uses; nothing to say when it served no run.
          if (savings.reused > 0 || flags.fresh)
            io.out(
              `${costLine({ costUsd: counts.cost_usd, savings, evals: summary }, { fresh: flags.fresh === true })}\n`,
            );
        }
        await reportToCi(io, summary.iterationDir, benchmark?.metadata.skill_name ?? skillPath, flags);
        if (summary.cancelled) io.setExitCode(130);
        else if (agentNeverRan(summary.records)) io.setExitCode(ExitCode.agentUnavailable);
      } finally {
        reporter.close();
        interrupt.dispose();
        await setup.close();
      }
    });
}
