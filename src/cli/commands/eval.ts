import type { Command } from "commander";
import { buildBenchmark, readIteration } from "../../bench/index.js";
import type { Benchmark } from "../../contracts/benchmark.js";
import { ExitCode } from "../../errors.js";
import { gradingHooks, judgeGrader } from "../../grade/index.js";
import { runEvals } from "../../run/index.js";
import type { RunRecord } from "../../run/run-record.js";
import { noSimScriptNotice } from "../../sim/index.js";
import {
  type AgentFlags,
  createSetup,
  type EvalFlags,
  type JudgeFlags,
  withAgentOptions,
  withEvalOptions,
  withJudgeOptions,
} from "../agent-setup.js";
import type { Io } from "../io.js";
import { interruptSignal } from "../options.js";
import { passRatesLine } from "../reporters/result-lines.js";
import { terminalReporter } from "../reporters/run-progress.js";

interface EvalCommandFlags extends AgentFlags, JudgeFlags, EvalFlags {
  grade: boolean;
  resume?: boolean;
  keepWorkspaces?: boolean;
  json?: boolean;
}

// Every run failed to start or to authenticate: the agent could not be run at all (exit 3).
function agentNeverRan(records: RunRecord[]): boolean {
  const ran = records.filter((r) => !r.skipped);
  return ran.length > 0 && ran.every((r) => r.outcome === "crash" || r.outcome === "auth_error");
}

function summarize(records: RunRecord[]) {
  const count = (pred: (r: RunRecord) => boolean) => records.filter(pred).length;
  return {
    runs: records.length,
    succeeded: count((r) => r.outcome === "success"),
    errors: count((r) => r.outcome !== "success" && r.outcome !== "cancelled"),
    cancelled_runs: count((r) => r.outcome === "cancelled"),
    skipped_as_finished: count((r) => r.skipped),
    cost_usd: Number(records.reduce((sum, r) => sum + r.costUsd, 0).toFixed(6)),
    tokens: records.reduce((sum, r) => sum + r.tokens, 0),
  };
}

export function registerEval(program: Command, io: Io): void {
  withAgentOptions(
    withJudgeOptions(
      withEvalOptions(
        program
          .command("eval")
          .description("run the skill's artifact evals with the skill and a baseline, in isolated workspaces")
          .argument("<skill>", "the skill folder"),
        1,
      ),
    ),
  )
    .option("--resume", "continue the latest iteration even if its plan differs")
    .option("--keep-workspaces", "keep each run's temporary workspace for inspection")
    .option("--no-grade", "record the runs without grading them")
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
      try {
        const summary = await runEvals({
          skillPath,
          ...(flags.evals ? { evalsPath: flags.evals } : {}),
          ...(flags.workspace ? { workspace: flags.workspace } : {}),
          runs: flags.runs,
          baseline: flags.baseline,
          concurrency: flags.concurrency,
          timeoutSeconds: flags.timeout,
          ...(flags.only ? { only: flags.only } : {}),
          ...(flags.model ? { model: flags.model } : {}),
          ...(flags.projectRoot ? { projectRoot: flags.projectRoot } : {}),
          ...(flags.resume ? { resume: true } : {}),
          ...(flags.keepWorkspaces ? { keepWorkspaces: true } : {}),
          signal: interrupt.signal,
          reporter,
          createAgent: async ({ suite }) => {
            // A judge that cannot be had stops the command before any run starts.
            if (flags.grade && suite.evals.some((e) => e.expectations.length > 0))
              await setup.judge(suite.dir);
            return setup.agent(suite.dir);
          },
          ...(flags.grade ? gradingHooks(grading) : {}),
        });
        reporter.close();
        const counts = summarize(summary.records);
        // The pass rates of the gradings just written; benchmark.json is left to `skillgym bench`.
        const benchmark: Benchmark | undefined = flags.grade
          ? buildBenchmark(await readIteration(summary.iterationDir))
          : undefined;
        if (flags.json) {
          io.out(
            `${JSON.stringify({ iteration_dir: summary.iterationDir, iteration: summary.iteration, resumed: summary.resumed, simulated: summary.simulated, ...(summary.simScript !== undefined ? { sim_script: summary.simScript } : {}), cancelled: summary.cancelled, ...counts, pass_rate: benchmark?.run_summary, statistics: benchmark?.statistics }, null, 2)}\n`,
          );
        } else {
          const note = summary.simulated ? " (simulated: skillgym sim stood in for the model)" : "";
          io.out(
            `${summary.cancelled ? "cancelled" : "done"}: ${counts.succeeded}/${counts.runs} runs finished, ${counts.errors} errors, ` +
              (counts.cancelled_runs > 0 ? `${counts.cancelled_runs} cancelled, ` : "") +
              `$${counts.cost_usd.toFixed(4)}${note}\n  ${summary.iterationDir}\n`,
          );
          if (summary.simulated && summary.simScript === null) io.out(`${noSimScriptNotice}\n`);
          if (benchmark) io.out(`${passRatesLine(benchmark)}\n`);
        }
        if (summary.cancelled) io.setExitCode(130);
        else if (agentNeverRan(summary.records)) io.setExitCode(ExitCode.agentUnavailable);
      } finally {
        reporter.close();
        interrupt.dispose();
        await setup.close();
      }
    });
}
