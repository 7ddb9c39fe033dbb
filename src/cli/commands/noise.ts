import { join } from "node:path";
import type { Command } from "commander";
import { NOISE_FILE, noiseOf, writeBenchmark } from "../../bench/index.js";
import { SkillgymError } from "../../errors.js";
import { gradingHooks, judgeGrader } from "../../grade/index.js";
import { defaultWorkspace, runEvals } from "../../run/index.js";
import { writeJson } from "../../runlog/atomic-write.js";
import { loadSkill } from "../../skill/index.js";
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
import type { Io } from "../io.js";
import { interruptSignal } from "../options.js";
import { terminalReporter } from "../reporters/run-progress.js";

interface NoiseFlags extends AgentFlags, JudgeFlags, EvalFlags {
  json?: boolean;
}

// The A/A runs live apart from the skill's own iterations, so Over time and `diff` never take one for a version.
const NOISE_FOLDER = "noise";

export function registerNoise(program: Command, io: Io): void {
  withAgentOptions(
    withJudgeOptions(
      withEvalOptions(
        program
          .command("noise")
          .description(
            "run the skill against itself (A/A) to measure how far two identical arms differ: the noise floor later verdicts respect",
          )
          .argument("<skill>", "the skill folder"),
        3,
      ),
    ),
  )
    .option("--json", "print noise.json")
    .action(async (skillPath: string, flags: NoiseFlags) => {
      if (flags.baseline !== "without_skill")
        throw new SkillgymError("USAGE", "noise runs the skill against itself: --baseline does not apply", {
          hint: "leave out --baseline",
        });
      const { skill } = await loadSkill(skillPath);
      // Stryker disable next-line StringLiteral: equivalent, runEvals refuses a skill that did not load before it writes anything
      const workspace = flags.workspace ?? defaultWorkspace(skillPath, skill?.name ?? "");
      const reporter = terminalReporter(io);
      const setup = createSetup(flags);
      const interrupt = interruptSignal(() => io.err("\ncancelling: finished runs are kept\n"));
      try {
        // The live status goes once the runs are over, before anything else is printed, and when they fail.
        const summary = await runEvals({
          skillPath,
          ...(flags.evals ? { evalsPath: flags.evals } : {}),
          workspace: join(workspace, NOISE_FOLDER),
          runs: flags.runs,
          // The skill's own folder as the earlier version: both arms run the same skill.
          baseline: skillPath,
          concurrency: flags.concurrency,
          timeoutSeconds: flags.timeout,
          ...(flags.only ? { only: flags.only } : {}),
          ...(flags.model ? { model: flags.model } : {}),
          ...(flags.projectRoot ? { projectRoot: flags.projectRoot } : {}),
          ...outputLimitsOf(flags),
          ...adaptiveRequest(flags),
          signal: interrupt.signal,
          reporter,
          createAgent: async ({ suite }: { suite: Suite }) => {
            if (suite.evals.some((e) => e.expectations.length > 0)) await setup.judge(suite.dir);
            return setup.agent(suite.dir);
          },
          ...gradingHooks({
            reporter,
            createGrader: async () => judgeGrader(await setup.judge(), interrupt.signal),
            signal: interrupt.signal,
            onError: (runDir: string, error: unknown) =>
              io.err(
                `  grading failed for ${runDir}: ${error instanceof Error ? error.message : String(error)}\n`,
              ),
          }),
        }).finally(() => reporter.close());
        // The A/A benchmark is held against the effect floor alone, never against an earlier noise.json.
        const { benchmark } = await writeBenchmark(summary.iterationDir, {
          effectFloor: flags.effectFloor,
          noiseSpread: 0,
        });
        const report = noiseOf(benchmark, {
          iterationDir: summary.iterationDir,
          effectFloor: flags.effectFloor,
          measuredAt: new Date().toISOString(),
        });
        if (!report)
          throw new SkillgymError("NO_EVALS", "no eval had two graded runs in both arms: no noise floor", {
            hint: "give the evals expectations or checks, and --runs 2 or more",
            file: summary.iterationDir,
          });
        const file = join(workspace, NOISE_FILE);
        await writeJson(file, report);
        if (flags.json) io.out(`${JSON.stringify(report, null, 2)}\n`);
        else {
          io.out(
            `A/A spread: ${report.spread.toFixed(2)} (two identical arms, ${report.runs_per_arm} runs each)\n` +
              `false calls at ±${report.effect_floor.toFixed(2)}: ${report.false_calls} of ${report.evals.filter((e) => e.verdict !== null).length} evals would have been called helps or hurts\n` +
              `wrote ${file}: later verdicts in this workspace hold a lift against ±${Math.max(report.spread, report.effect_floor).toFixed(2)}\n`,
          );
        }
      } finally {
        interrupt.dispose();
        // The simulator and any judge it started: left open, they keep the process from exiting.
        await setup.close();
      }
    });
}
