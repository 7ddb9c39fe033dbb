import type { Command } from "commander";
import { ExitCode, SkillgymError } from "../../errors.js";
import { judgeGrader } from "../../grade/index.js";
import { type PipelineOptions, planPipeline, runPipeline } from "../../pipeline/index.js";
import { parseConditionNames } from "../../triggers/index.js";
import {
  type AgentFlags,
  adaptiveRequest,
  agentsOf,
  checkCredentials,
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
import { fraction, idList, interruptSignal, modelsOf, positiveInt, positiveNumber } from "../options.js";
import { shardShareLine, storePlanLines } from "../reporters/dry-run.js";
import { pipelineSummaryLines } from "../reporters/pipeline-summary.js";
import { wallTimeLine } from "../reporters/result-lines.js";
import { terminalReporter } from "../reporters/run-progress.js";
import { screenPlanLine } from "../reporters/screen-line.js";
import { shardSummaryLine } from "../reporters/shard-line.js";
import { triggerReporter } from "../reporters/trigger-progress.js";
import { type ScreenFlags, screenOf, withScreenOptions } from "../screen-flags.js";
import { type StoreFlags, storeRequest, withStoreOptions } from "../store-flags.js";
import { runSeveralAgents } from "./run-agents.js";

interface RunFlags extends AgentFlags, JudgeFlags, EvalFlags, StoreFlags, CiFlags, ScreenFlags {
  triggerRuns: number;
  threshold: number;
  triggerTimeout: number;
  description?: string;
  withSkills?: string[];
  installed?: string[];
  conditions?: string[];
  context?: string;
  allRuns?: boolean;
  grade: boolean;
  minPassRate?: number;
  minTriggerAccuracy?: number;
  maxCost?: number;
  dryRun?: boolean;
  resume?: boolean;
  keepWorkspaces?: boolean;
  json?: boolean;
}

const withCiOptions = (command: Command) => withJunitOption(withShardOption(command));

export function registerRun(program: Command, io: Io): void {
  withScreenOptions(
    withCiOptions(
      withStoreOptions(
        withAgentOptions(
          withJudgeOptions(
            withEvalOptions(
              program
                .command("run")
                .description(
                  "the main job: artifact evals with a baseline, trigger evals, grading, benchmark and a report",
                )
                .argument("<skill>", "the skill folder"),
              3,
              true,
            ),
          ),
          true,
        ),
      ),
    ),
  )
    .option("--trigger-runs <n>", "runs per trigger query", positiveInt, 3)
    .option("--threshold <t>", "trigger rate that counts as triggering", fraction, 0.5)
    .option("--trigger-timeout <seconds>", "per-run limit of trigger runs", positiveInt, 180)
    .option(
      "--description <text>",
      "test this description in the trigger evals instead of the one in SKILL.md",
    )
    .option(
      "--with-skills <dirs>",
      "comma-separated skill folders installed beside it in trigger runs",
      idList,
    )
    .option(
      "--installed <dirs>",
      "comma-separated folders of skill folders: every skill in them installed beside it in trigger runs",
      idList,
    )
    .option(
      "--conditions <names>",
      'where trigger queries run: "clean" (an empty folder, no other skill), "real" (the --project-root and --installed given), or "clean,real" side by side',
      idList,
    )
    .option(
      "--context <file>",
      "a prior conversation (JSON: [{role, content}, …]) each trigger run continues before its query (Claude Code, Gemini CLI)",
    )
    .option("--all-runs", "give every trigger query all its runs, even once its verdict is settled")
    .option("--no-grade", "record the runs without grading them")
    .option("--min-pass-rate <x>", "gate: with_skill pass rate at least x (0..1)", fraction)
    .option("--min-trigger-accuracy <x>", "gate: trigger accuracy at least x (0..1)", fraction)
    .option("--max-cost <usd>", "stop scheduling new runs before this much is spent", positiveNumber)
    .option("--resume", "continue the latest iteration even if its plan differs")
    .option("--keep-workspaces", "keep each run's temporary workspace for inspection")
    .option(
      "--dry-run",
      "print the plan, a rough cost and wall-time estimate, and check the credentials; start nothing",
    )
    .option("--json", "print the result as JSON")
    .action(async (skillPath: string, flags: RunFlags) => {
      const setup = createSetup(flags);
      const interrupt = interruptSignal(() =>
        io.err("\ncancelling: finished runs are kept; Ctrl-C again to quit now\n"),
      );
      const models = modelsOf(flags);
      const screen = screenOf(flags);
      // The status line reads an undefined maxUsd as no limit.
      const spending = { usd: 0, maxUsd: flags.maxCost };
      const reporter = terminalReporter(io, { spending });
      const triggerProgress = triggerReporter(io, { spending });
      const options: PipelineOptions = {
        skillPath,
        ...(flags.evals ? { evalsPath: flags.evals } : {}),
        ...(flags.projectRoot ? { projectRoot: flags.projectRoot } : {}),
        ...(flags.workspace ? { workspace: flags.workspace } : {}),
        runs: flags.runs,
        effectFloor: flags.effectFloor,
        baseline: flags.baseline,
        concurrency: flags.concurrency,
        timeoutSeconds: flags.timeout,
        ...outputLimitsOf(flags),
        ...(flags.only ? { only: flags.only } : {}),
        // The one --model; several go to runSeveralAgents, which leaves this one out.
        model: models[0],
        triggerRuns: flags.triggerRuns,
        threshold: flags.threshold,
        triggerTimeoutSeconds: flags.triggerTimeout,
        description: flags.description,
        ...(flags.withSkills ? { withSkills: flags.withSkills } : {}),
        ...(flags.installed ? { installed: flags.installed } : {}),
        ...(flags.conditions ? { conditions: parseConditionNames(flags.conditions) } : {}),
        ...(flags.context ? { context: flags.context } : {}),
        ...(flags.allRuns ? { allRuns: true } : {}),
        ...(screen ? { screen } : {}),
        grade: flags.grade,
        // The pipeline reads an undefined gate or limit (or description, above) as none asked for.
        gates: { minPassRate: flags.minPassRate, minTriggerAccuracy: flags.minTriggerAccuracy },
        maxCostUsd: flags.maxCost,
        ...(flags.resume ? { resume: true } : {}),
        ...(flags.keepWorkspaces ? { keepWorkspaces: true } : {}),
        store: storeRequest(flags),
        ...(flags.shard ? { shard: flags.shard } : {}),
        ...adaptiveRequest(flags),
        signal: interrupt.signal,
        reporter,
        triggerReporter: triggerProgress,
        createAgent: async ({ suite, wantsJudge }) => {
          if (wantsJudge) await setup.judge(suite);
          return setup.agent(suite);
        },
        createGrader: async () => judgeGrader(await setup.judge(), interrupt.signal),
        onGradingError: (runDir, error) =>
          io.err(
            `  grading failed for ${runDir}: ${error instanceof Error ? error.message : String(error)}\n`,
          ),
        onGraded: (runDir) => io.err(`  graded ${runDir} (its grading had not finished)\n`),
      };
      try {
        const agents = agentsOf(flags);
        if (agents.length > 1 || models.length > 1) {
          if (screen)
            throw new SkillgymError("USAGE", "--screen replay takes one agent and one model at a time", {
              hint: "run once per --agent and --model with --screen replay, or leave --screen out",
            });
          await runSeveralAgents(io, { agents, models }, flags, setup, options);
          return;
        }
        if (flags.dryRun) {
          const plan = await planPipeline(options, flags.simulate === true);
          const share = shardShareLine(plan);
          if (!flags.json && share) io.out(`${share}\n`);
          if (!flags.json)
            io.out(
              `plan for ${plan.skill}: ${plan.agentRuns} eval runs, ${plan.triggerRuns} trigger runs, ${plan.judgeCalls} judge calls\n` +
                `estimated cost: about $${plan.costUsd.toFixed(2)} (rough: $${plan.unitCosts.agentRunUsd.toFixed(2)} per eval run, ` +
                `$${plan.unitCosts.triggerRunUsd.toFixed(2)} per trigger run, $${plan.unitCosts.judgeCallUsd.toFixed(2)} per judge call)\n` +
                `${wallTimeLine(plan)}\n` +
                (plan.store ? `${storePlanLines(plan.store).join("\n")}\n` : "") +
                (plan.screen ? `${screenPlanLine(plan.screen)}\n` : ""),
            );
          // A real run without a login fails here, as it would before its first run (exit 3).
          const credentials = flags.simulate
            ? "credentials: none needed (simulated)"
            : await checkCredentials(setup, flags, plan.judgeCalls > 0 ? { judge: "judge" } : {});
          if (flags.json)
            io.out(
              `${JSON.stringify({ ...plan, credentials: flags.simulate ? "simulated" : "found" }, null, 2)}\n`,
            );
          else io.out(`${credentials}\nnothing was started\n`);
          return;
        }
        const result = await runPipeline(options);
        // Both reporters draw the one status line: either's close hides it before the summary.
        // Stryker disable next-line CallExpression: equivalent, triggerProgress.close() hides the same status line
        reporter.close();
        // Stryker disable next-line CallExpression: equivalent, reporter.close() hides the same status line
        triggerProgress.close();
        if (flags.shard && !flags.json) io.out(`${shardSummaryLine(flags.shard)}\n`);
        if (flags.json) {
          io.out(
            `${JSON.stringify(
              {
                iteration_dir: result.iterationDir,
                simulated: result.simulated,
                // Left out of the JSON when undefined (not simulated); null when the simulator had no script.
                sim_script: result.simScript,
                cancelled: result.cancelled,
                budget_exhausted: result.budgetExhausted,
                cost_usd: result.costUsd,
                savings: {
                  reused_runs: result.savings.reused,
                  ran_runs: result.savings.ran,
                  saved_usd: result.savings.savedUsd,
                },
                ...(flags.fresh ? { store_read: false } : {}),
                pass_rate: result.benchmark?.run_summary,
                statistics: result.benchmark?.statistics,
                triggers: result.triggers?.results.summary,
                ...(result.triggers?.results.screen ? { screen: result.triggers.results.screen } : {}),
                gates: result.gates,
                report: result.reportFile,
              },
              null,
              2,
            )}\n`,
          );
        } else io.out(`${pipelineSummaryLines(result, { fresh: flags.fresh === true }).join("\n")}\n`);
        await reportToCi(
          io,
          result.iterationDir,
          result.benchmark?.metadata.skill_name ?? skillPath,
          flags,
          result.gates,
        );
        if (result.cancelled) io.setExitCode(130);
        else if (result.gates.some((g) => !g.passed)) io.setExitCode(ExitCode.gateFailed);
      } finally {
        // Stryker disable next-line CallExpression: equivalent, triggerProgress.close() hides the same status line
        reporter.close();
        // Stryker disable next-line CallExpression: equivalent, reporter.close() hides the same status line
        triggerProgress.close();
        interrupt.dispose();
        await setup.close();
      }
    });
}
