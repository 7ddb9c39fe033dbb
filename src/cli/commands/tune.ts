import { type Command, InvalidArgumentError } from "commander";
import type { TunePreset } from "../../contracts/iteration-state.js";
import { ExitCode, SkillgymError } from "../../errors.js";
import { judgeBackends } from "../../judge/create.js";
import type { JudgeBackend } from "../../judge/judge.js";
import { applyBest, runTunes, type TuneResult } from "../../tune/index.js";
import {
  type AgentFlags,
  createSetup,
  type JudgeFlags,
  judgeBackend,
  type OutputLimitFlags,
  outputLimitsOf,
  withAgentOptions,
  withJudgeOptions,
  withOutputLimitOptions,
} from "../agent-setup.js";
import { askChoice } from "../ask-choice.js";
import type { Io } from "../io.js";
import { idList, interruptSignal, positiveInt, positiveNumber } from "../options.js";
import { terminalReporter } from "../reporters/run-progress.js";
import { tuneJson, tuneProgress, tuneSummaryLines } from "../reporters/tune.js";
import { type StoreFlags, storeRequest, withStoreOptions } from "../store-flags.js";

interface TuneFlags extends AgentFlags, JudgeFlags, StoreFlags, OutputLimitFlags {
  evaluator?: JudgeBackend;
  chain?: boolean;
  preset?: TunePreset;
  maxIterations?: number;
  threshold?: number;
  scenario?: string;
  yes?: boolean;
  resume?: string;
  apply?: boolean;
  maxCost?: number;
  workspace?: string;
  runs: number;
  concurrency: number;
  timeout: number;
  model?: string;
  json?: boolean;
}

const presets: TunePreset[] = ["quick", "standard", "thorough"];

function presetName(value: string): TunePreset {
  if (!(presets as string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${presets.join(", ")}`);
  return value as TunePreset;
}

function score100(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 100)
    throw new InvalidArgumentError("expected a number from 0 to 100");
  return n;
}

async function maybeApply(io: Io, result: TuneResult, flags: TuneFlags): Promise<string[] | undefined> {
  if (!flags.apply || result.cancelled || result.state.status !== "completed") return undefined;
  const diff = result.diffs.map((d) => d.diff).join("");
  if (diff !== "" && !flags.json) io.out(`${diff}\n`);
  return applyBest(result);
}

export function registerTune(program: Command, io: Io): void {
  withOutputLimitOptions(
    withStoreOptions(
      withJudgeOptions(
        withAgentOptions(
          program
            .command("tune")
            .description(
              "improve a skill (or a chain of skills) by execute → evaluate → improve, keeping only what scores better",
            )
            .argument(
              "[skills]",
              "the skill folder, or several comma-separated (with --chain: in chain order)",
            ),
        )
          .option("--chain", "tune several skills as a chain: each one's outputs are the next one's inputs")
          .option(
            "--preset <name>",
            "quick (3 iterations, 70), standard (5, 80), thorough (8, 90)",
            presetName,
          )
          .option("--max-iterations <n>", "iterations at most (overrides the preset)", positiveInt)
          .option(
            "--threshold <score>",
            "stop once a version scores this much, 0-100 (overrides the preset)",
            score100,
          )
          .option("--scenario <text>", "the task to tune for when the skill has no evals.json")
          .option("-y, --yes", "ask nothing (standard preset unless --preset)")
          .option("--resume <dir>", "continue the tune in this folder (a tune-<timestamp>/)")
          .option("--apply", "write the best version over your skill, after printing the diff")
          .option("--max-cost <usd>", "stop before this much is spent", positiveNumber)
          .option(
            "--workspace <dir>",
            "where tune-<timestamp>/ is written (default: <skill-parent>/<name>-workspace)",
          )
          .option("--runs <n>", "runs of each eval per iteration", positiveInt, 3)
          .option("--concurrency <n>", "runs at once", positiveInt, 4)
          .option(
            "--timeout <seconds>",
            "per-run limit unless the eval sets `timeout` (the improver's too)",
            positiveInt,
            600,
          )
          .option("--model <model>", "the agent's model"),
        { role: "who grades expectations (and evaluates, unless --evaluator)" },
      ),
    ),
  )
    .option(
      "--evaluator <backend>",
      `who scores the rubric in the evaluate phase: ${judgeBackends.join(", ")} (default: the --judge)`,
      judgeBackend,
    )
    .option("--json", "print the result as JSON")
    .action(async (skillsArg: string | undefined, flags: TuneFlags) => {
      const skills = skillsArg ? idList(skillsArg) : [];
      if (!flags.resume && skills.length === 0)
        throw new SkillgymError("USAGE", "tune needs a skill folder, or --resume DIR", {
          hint: "skillgym tune path/to/skill [-y]",
        });
      let preset = flags.preset;
      let chain = flags.chain === true;
      const interactive =
        !flags.yes && !flags.json && io.isTTY && process.stdin.isTTY === true && !flags.resume;
      if (interactive && !preset && flags.maxIterations === undefined && flags.threshold === undefined)
        preset =
          presets[
            await askChoice(
              io,
              "Tune preset:",
              ["quick (3 iterations, 70)", "standard (5 iterations, 80)", "thorough (8 iterations, 90)"],
              1,
            )
          ];
      if (interactive && skills.length > 1 && !chain)
        chain =
          (await askChoice(
            io,
            "Tune mode:",
            ["single: tune each skill on its own", "chain: each skill's outputs feed the next"],
            0,
          )) === 1;

      const setup = createSetup(flags);
      const interrupt = interruptSignal(() =>
        io.err("\ncancelling: the tune keeps what finished; resume it with --resume\n"),
      );
      const runProgress = terminalReporter(io, {
        spending: { usd: 0, maxUsd: flags.maxCost },
      });
      const outputs: ReturnType<typeof tuneJson>[] = [];
      try {
        await runTunes({
          skillPaths: skills,
          mode: chain ? "chain" : "single",
          ...(preset ? { preset } : {}),
          maxIterations: flags.maxIterations,
          threshold: flags.threshold,
          ...(flags.scenario ? { scenario: flags.scenario } : {}),
          ...(flags.workspace ? { workspace: flags.workspace } : {}),
          ...(flags.resume ? { resumeDir: flags.resume } : {}),
          runs: flags.runs,
          concurrency: flags.concurrency,
          timeoutSeconds: flags.timeout,
          ...outputLimitsOf(flags),
          ...(flags.model ? { model: flags.model } : {}),
          maxCostUsd: flags.maxCost,
          store: storeRequest(flags),
          signal: interrupt.signal,
          reporter: tuneProgress(io),
          runReporter: runProgress,
          createAgent: async (suiteDir) => {
            // An evaluator that cannot be had stops the tune before any run starts.
            if (flags.evaluator) await setup.judge(suiteDir, flags.evaluator);
            return setup.agent(suiteDir);
          },
          createJudge: (suiteDir) => setup.judge(suiteDir),
          ...(flags.evaluator
            ? { createEvaluator: (suiteDir: string) => setup.judge(suiteDir, flags.evaluator) }
            : {}),
          onGradingError: (runDir, error) =>
            io.err(
              `  grading failed for ${runDir}: ${error instanceof Error ? error.message : String(error)}\n`,
            ),
          onTuneEnd: async (result) => {
            runProgress.close();
            const applied = await maybeApply(io, result, flags);
            if (flags.json) outputs.push(tuneJson(result, applied));
            else io.out(`${tuneSummaryLines(result, applied).join("\n")}\n`);
            if (flags.apply && !applied && !flags.json) io.out("not applied: the tune did not finish\n");
            if (result.cancelled) io.setExitCode(130);
            // Nothing could be measured before the error limit: the agent or the judge could not be run (exit 3).
            else if (
              result.state.termination_reason === "error_limit_reached" &&
              result.state.iterations.every((it) => it.evaluation === null)
            )
              io.setExitCode(ExitCode.agentUnavailable);
          },
        });
        if (flags.json)
          io.out(`${JSON.stringify(outputs.length === 1 ? outputs[0] : { tunes: outputs }, null, 2)}\n`);
      } finally {
        // Stryker disable next-line CallExpression: equivalent, onTuneEnd closed it, or main clears it on an error
        runProgress.close();
        interrupt.dispose();
        await setup.close();
      }
    });
}
