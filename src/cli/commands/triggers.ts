import type { Command } from "commander";
import { SkillgymError } from "../../errors.js";
import { planTriggersWithStore } from "../../pipeline/index.js";
import type { Suite } from "../../suite/index.js";
import { parseConditionNames, runTriggers } from "../../triggers/index.js";
import { screenForecast } from "../../triggers/replay/index.js";
import { type AgentFlags, createSetup, withAgentOptions } from "../agent-setup.js";
import { type CiFlags, reportToCi, withJunitOption, withShardOption } from "../ci-flags.js";
import type { Io } from "../io.js";
import { fraction, idList, interruptSignal, modelList, modelsOf, positiveInt } from "../options.js";
import { freshNote } from "../reporters/cost-line.js";
import { storePlanLines } from "../reporters/dry-run.js";
import { rateLimitLine } from "../reporters/rate-limit-line.js";
import { screenNote, screenPlanLine } from "../reporters/screen-line.js";
import { shardSummaryLine } from "../reporters/shard-line.js";
import { triggerReporter } from "../reporters/trigger-progress.js";
import { formatTriggerResults, settledNote } from "../reporters/trigger-results.js";
import { type ScreenFlags, screenOf, withScreenOptions } from "../screen-flags.js";
import { type StoreFlags, storeRequest, withStoreOptions } from "../store-flags.js";
import { runSeveralAgents } from "./run-agents.js";

interface TriggerFlags extends AgentFlags, StoreFlags, CiFlags, ScreenFlags {
  evals?: string;
  workspace?: string;
  runs: number;
  threshold: number;
  concurrency: number;
  timeout: number;
  model?: string;
  description?: string;
  withSkills?: string[];
  installed?: string[];
  conditions?: string[];
  context?: string;
  allRuns?: boolean;
  projectRoot?: string;
  dryRun?: boolean;
  json?: boolean;
}

export function registerTriggers(program: Command, io: Io): void {
  withScreenOptions(
    withJunitOption(
      withShardOption(
        withStoreOptions(
          withAgentOptions(
            program
              .command("triggers")
              .description("check that the agent picks the skill for the queries it should, and only those")
              .argument("<skill>", "the skill folder"),
          ),
        ),
      ),
    ),
  )
    .option("--evals <path>", "the eval suite folder or triggers.json (default: discovered)")
    .option(
      "--runs <n>",
      "the most runs per query (a query stops once its verdict is settled)",
      positiveInt,
      3,
    )
    .option("--all-runs", "give every query all its runs, even once its verdict is settled")
    .option("--threshold <t>", "trigger rate that counts as triggering", fraction, 0.5)
    .option("--concurrency <n>", "runs at once", positiveInt, 8)
    .option("--timeout <seconds>", "per-run limit", positiveInt, 180)
    .option(
      "--model <models>",
      "the agent's model; a comma-separated list runs each (one iteration, a folder and a matrix row per model)",
      modelList,
    )
    .option(
      "--description <text>",
      "test this description instead of the one in SKILL.md (the file is not changed)",
    )
    .option(
      "--with-skills <dirs>",
      "comma-separated skill folders installed beside it, to see which takes a query",
      idList,
    )
    .option(
      "--installed <dirs>",
      "comma-separated folders of skill folders (e.g. a copy of ~/.claude/skills): every skill in them installed beside it",
      idList,
    )
    .option(
      "--conditions <names>",
      'where the queries run: "clean" (an empty folder, no other skill), "real" (the --project-root and --installed given), or "clean,real" side by side',
      idList,
    )
    .option(
      "--context <file>",
      "a prior conversation (JSON: [{role, content}, …]) each trigger run continues before its query (Claude Code, Gemini CLI)",
    )
    .option("--workspace <dir>", "where iterations are written (default: <skill-parent>/<name>-workspace)")
    .option(
      "--project-root <dir>",
      "the project the skill belongs to: found the suite, and each trigger run starts in a copy of it",
    )
    .option("--dry-run", "say what the result store serves and what the rest costs; start no agent")
    .option("--json", "print trigger-results.json")
    .action(async (skillPath: string, flags: TriggerFlags) => {
      const setup = createSetup(flags);
      const interrupt = interruptSignal(() =>
        io.err("\ncancelling: finished runs are kept; Ctrl-C again to quit now\n"),
      );
      const progress = triggerReporter(io);
      const models = modelsOf(flags);
      const screen = screenOf(flags);
      try {
        const options = {
          skillPath,
          ...(flags.evals ? { evalsPath: flags.evals } : {}),
          ...(flags.projectRoot ? { projectRoot: flags.projectRoot, project: flags.projectRoot } : {}),
          ...(flags.workspace ? { workspace: flags.workspace } : {}),
          runs: flags.runs,
          threshold: flags.threshold,
          concurrency: flags.concurrency,
          timeoutSeconds: flags.timeout,
          // The one model --model names; with several, each model's lane is given its own.
          model: models[0],
          description: flags.description,
          ...(flags.withSkills ? { withSkills: flags.withSkills } : {}),
          ...(flags.installed ? { installed: flags.installed } : {}),
          ...(flags.conditions ? { conditions: parseConditionNames(flags.conditions) } : {}),
          ...(flags.context ? { context: flags.context } : {}),
          ...(flags.allRuns ? { allRuns: true } : {}),
          ...(screen ? { screen } : {}),
          store: storeRequest(flags),
          ...(flags.shard ? { shard: flags.shard } : {}),
          signal: interrupt.signal,
          reporter: progress,
          createAgent: ({ suite }: { suite: Suite }) => setup.agent(suite),
        };
        if (models.length > 1) {
          if (screen)
            throw new SkillgymError("USAGE", "--screen replay takes one model at a time", {
              hint: "run triggers once per --model with --screen replay, or leave --screen out",
            });
          // Each model's trigger runs into one iteration, as `run --model a,b` runs them, with no artifact evals.
          const { runs, timeoutSeconds, reporter, ...rest } = options;
          // Stryker disable next-line StringLiteral: equivalent, --agent defaults to claude-code: the fallback is never taken
          await runSeveralAgents(io, { agents: [flags.agent ?? "claude-code"], models }, flags, setup, {
            ...rest,
            stage: "triggers",
            triggerRuns: runs,
            triggerTimeoutSeconds: timeoutSeconds,
            triggerReporter: reporter,
            runs: 1,
            baseline: "none",
            timeoutSeconds,
            // Stryker disable next-line BooleanLiteral: equivalent, a trigger-only iteration has no evals to grade
            grade: false,
            gates: {},
            // Stryker disable next-line StringLiteral: equivalent, grade is false: trigger runs never ask for a grader
            createGrader: () => Promise.reject(new Error("trigger runs have no judge")),
          });
          return;
        }
        if (flags.dryRun) {
          const stored = await planTriggersWithStore(options, flags.simulate === true);
          const sets = options.conditions;
          const plan = {
            ...stored,
            ...(screen && stored.triggerRuns
              ? {
                  screen: screenForecast({
                    runs: stored.triggerRuns.toRun,
                    keys: sets?.clean && sets.real ? 2 : 1,
                  }),
                }
              : {}),
          };
          io.out(
            flags.json
              ? `${JSON.stringify(plan, null, 2)}\n`
              : `${storePlanLines(plan).join("\n")}\n${plan.screen ? `${screenPlanLine(plan.screen)}\n` : ""}nothing was started\n`,
          );
          return;
        }
        const summary = await runTriggers(options);
        progress.close();
        if (flags.json) io.out(`${JSON.stringify(summary.results, null, 2)}\n`);
        else {
          const settled = summary.cancelled ? undefined : settledNote(summary.results);
          const screened = screenNote(summary.results);
          if (flags.shard) io.out(`${shardSummaryLine(flags.shard)}\n`);
          io.out(
            `${formatTriggerResults(summary.results)}  ${summary.cancelled ? "(cancelled; not written)" : summary.resultsFile}\n` +
              (settled ? `${settled}\n` : "") +
              (screened ? `${screened}\n` : "") +
              (summary.rateLimits ? `${rateLimitLine("trigger runs", summary.rateLimits)}\n` : "") +
              (flags.fresh ? `${freshNote}\n` : ""),
          );
        }
        if (!summary.cancelled) await reportToCi(io, summary.iterationDir, summary.results.skill_name, flags);
        if (summary.cancelled) io.setExitCode(130);
      } finally {
        progress.close();
        interrupt.dispose();
        await setup.close();
      }
    });
}
