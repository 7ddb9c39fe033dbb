import { type Command, InvalidArgumentError } from "commander";
import { judgeBackends } from "../../judge/create.js";
import type { JudgeBackend } from "../../judge/judge.js";
import { type OptimizeOptions, planOptimize, runOptimize } from "../../optimize/index.js";
import {
  type AgentFlags,
  checkCredentials,
  createSetup,
  judgeBackend,
  withAgentOptions,
} from "../agent-setup.js";
import type { Io } from "../io.js";
import {
  fraction,
  idList,
  interruptSignal,
  nonNegativeInt,
  positiveInt,
  positiveNumber,
} from "../options.js";
import {
  estimateLine,
  optimizeProgress,
  optimizeScreenPlanLine,
  optimizeSummary,
} from "../reporters/optimize.js";
import { wallTimeLine } from "../reporters/result-lines.js";
import { triggerReporter } from "../reporters/trigger-progress.js";
import { optimizeScreenOf, type ScreenFlags, withScreenOptions } from "../screen-flags.js";
import { type StoreFlags, storeRequest, withStoreOptions } from "../store-flags.js";

interface OptimizeFlags extends AgentFlags, StoreFlags, ScreenFlags {
  evals?: string;
  workspace?: string;
  projectRoot?: string;
  installed?: string[];
  context?: string;
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

function integer(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n)) throw new InvalidArgumentError("expected a whole number");
  return n;
}

export function registerOptimize(program: Command, io: Io): void {
  withScreenOptions(
    withStoreOptions(
      withAgentOptions(
        program
          .command("optimize")
          .description("improve the skill's description against held-out trigger queries")
          .argument("<skill>", "the skill folder"),
      ),
    ),
    'how the train queries\' runs are decided: "replay" (the default when the agent has replay and an API key, or under --simulate) sends the agent\'s captured first request with each query and lets the agent make only the runs its first turn leaves open; "none": the agent makes every run. With --runs 3 or more, replay also makes each test query\'s first run; the agent makes the rest',
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
    .option("--improver <backend>", `who proposes descriptions: ${judgeBackends.join(", ")}`, judgeBackend)
    .option("--improver-model <model>", "the improver's model (required for openai)")
    .option("--improver-base-url <url>", "the improver API's base URL (anthropic, openai)")
    .option("--max-cost <usd>", "stop before an iteration would cross this spending limit", positiveNumber)
    .option(
      "--workspace <dir>",
      "where optimize-<timestamp>/ is written (default: <skill-parent>/<name>-workspace)",
    )
    .option(
      "--project-root <dir>",
      "the project the skill belongs to: finds the suite, and each trigger run starts in a copy of it",
    )
    .option(
      "--installed <dirs>",
      "comma-separated folders of skill folders (e.g. a copy of ~/.claude/skills): every skill in them installed beside it in each trigger run",
      idList,
    )
    .option(
      "--context <file>",
      "a prior conversation (JSON: [{role, content}, …]) each trigger run continues before its query (Claude Code)",
    )
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
      const screen = optimizeScreenOf(flags);
      const triggerProgress = triggerReporter(io, {
        // Without --max-cost, maxUsd is undefined: the status shows what was spent, against no limit.
        spending: { usd: 0, maxUsd: flags.maxCost },
      });
      const options: OptimizeOptions = {
        skillPath,
        ...(flags.evals ? { evalsPath: flags.evals } : {}),
        ...(flags.projectRoot ? { projectRoot: flags.projectRoot, project: flags.projectRoot } : {}),
        ...(flags.installed ? { installed: flags.installed } : {}),
        ...(flags.context ? { context: flags.context } : {}),
        ...(flags.workspace ? { workspace: flags.workspace } : {}),
        maxIterations: flags.maxIterations,
        holdout: flags.holdout,
        runs: flags.runs,
        threshold: flags.threshold,
        seed: flags.seed,
        concurrency: flags.concurrency,
        timeoutSeconds: flags.timeout,
        ...(flags.model ? { model: flags.model } : {}),
        // Undefined without --max-cost: no limit, and --resume keeps the stored one.
        maxCostUsd: flags.maxCost,
        ...(flags.apply ? { apply: true } : {}),
        ...(flags.resume
          ? {
              resumeDir: flags.resume,
              explicit: Object.entries(resumedFlags)
                .filter(([flag]) => command.getOptionValueSource(flag) === "cli")
                .map(([, option]) => option),
            }
          : {}),
        store: storeRequest(flags),
        screen,
        signal: interrupt.signal,
        reporter: optimizeProgress(io),
        triggerReporter: triggerProgress,
        createAgent: ({ suite }) => setup.agent(suite),
        createImprover: ({ suite }) => setup.judge(suite),
      };
      try {
        if (flags.dryRun) {
          const plan = await planOptimize(options, flags.simulate === true);
          if (!flags.json)
            io.out(
              `plan for ${plan.skill}: ${plan.train.length} train queries, ${plan.test.length} test queries (held out)\n` +
                `${estimateLine(plan.estimate, flags.maxCost, flags.simulate === true)}\n${wallTimeLine(plan)}\n` +
                `${optimizeScreenPlanLine(plan)}\n`,
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
        // The live status goes before the summary is printed, and when the optimization fails.
        const result = await runOptimize(options).finally(() => triggerProgress.close());
        if (flags.json) io.out(`${JSON.stringify(result.results, null, 2)}\n`);
        else
          io.out(
            optimizeSummary(
              result.results,
              { results: result.resultsFile, report: result.reportFile },
              result.applyNote,
            ),
          );
        if (result.results.status === "interrupted") io.setExitCode(130);
      } finally {
        interrupt.dispose();
        await setup.close();
      }
    });
}
