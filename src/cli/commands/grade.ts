import type { Command } from "commander";
import { gradeIteration, judgeGrader } from "../../grade/index.js";
import { type AgentFlags, createSetup, type JudgeFlags, withJudgeOptions } from "../agent-setup.js";
import type { Io } from "../io.js";
import { interruptSignal, positiveInt } from "../options.js";

interface GradeFlags extends AgentFlags, JudgeFlags {
  force?: boolean;
  concurrency: number;
  json?: boolean;
}

export function registerGrade(program: Command, io: Io): void {
  withJudgeOptions(
    program
      .command("grade")
      .description("grade (or re-grade) every finished run of an iteration, without running any agent again")
      .argument("<iteration-dir>", "an iteration folder written by `skillgym eval`"),
  )
    .option("--force", "re-grade runs that already have a grading.json")
    .option("--concurrency <n>", "runs graded at once", positiveInt, 4)
    .option("--agent-bin <path>", "the Claude Code binary (for the claude-code judge)")
    .option("--simulate", "grade with skillgym sim's scripted verdicts (offline, free)")
    .option("--sim-script <file>", "simulator script with a `judge` section")
    .option("--json", "print the result as JSON")
    .action(async (iterationDir: string, flags: GradeFlags) => {
      const setup = createSetup(flags);
      const interrupt = interruptSignal(() => io.err("\ncancelling grading\n"));
      try {
        const result = await gradeIteration({
          iterationDir,
          ...(flags.force ? { force: true } : {}),
          concurrency: flags.concurrency,
          createGrader: async () => judgeGrader(await setup.judge(), interrupt.signal),
          signal: interrupt.signal,
          onRunGraded: (info) => {
            if (info.skipped) return;
            io.err(
              info.error
                ? `  ${info.runDir}: grading failed: ${info.error}\n`
                : `  ${info.runDir}: ${((info.passRate ?? 0) * 100).toFixed(0)}%\n`,
            );
          },
        });
        if (flags.json) io.out(`${JSON.stringify(result, null, 2)}\n`);
        else {
          io.out(
            `${interrupt.signal.aborted ? "cancelled: " : ""}graded ${result.graded} runs, skipped ${result.skipped} (already graded or errored), ` +
              `${result.errors.length} failed; judge cost $${result.judgeCostUsd.toFixed(4)}\n`,
          );
        }
        if (interrupt.signal.aborted) io.setExitCode(130);
        else if (result.errors.length > 0 && result.graded === 0) io.setExitCode(3);
      } finally {
        interrupt.dispose();
        await setup.close();
      }
    });
}
