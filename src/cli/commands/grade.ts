import type { Command } from "commander";
import { type GradedPart, gradeIterations, iterationSandboxed, judgeGrader } from "../../grade/index.js";
import { type AgentFlags, createSetup, type JudgeFlags, withJudgeOptions } from "../agent-setup.js";
import type { Io } from "../io.js";
import { binaryPath, interruptSignal, positiveInt } from "../options.js";

interface GradeFlags extends AgentFlags, JudgeFlags {
  force?: boolean;
  concurrency: number;
  json?: boolean;
}

const gradedText = (r: GradedPart["result"]) =>
  `graded ${r.graded} runs, skipped ${r.skipped} (already graded or errored), ${r.errors.length} failed; ` +
  `judge cost $${r.judgeCostUsd.toFixed(4)}`;

// Every agent's part added up: what the exit code and --json speak of.
function totalOf(parts: readonly GradedPart[]): GradedPart["result"] {
  return {
    graded: parts.reduce((n, p) => n + p.result.graded, 0),
    skipped: parts.reduce((n, p) => n + p.result.skipped, 0),
    errors: parts.flatMap((p) => p.result.errors),
    judgeCostUsd: parts.reduce((n, p) => n + p.result.judgeCostUsd, 0),
  };
}

export function registerGrade(program: Command, io: Io): void {
  withJudgeOptions(
    program
      .command("grade")
      .description("grade (or re-grade) every finished run of an iteration, without running any agent again")
      .argument(
        "<iteration-dir>",
        "an iteration folder written by `skillgym eval` or `run` (of several agents: each agent's is graded)",
      ),
  )
    .option("--force", "re-grade runs that already have a grading.json")
    .option("--concurrency <n>", "runs graded at once", positiveInt, 4)
    .option(
      "--agent-bin <path>",
      "the judge agent's binary, when the judge is an agent (claude-code, codex, gemini, opencode, copilot)",
      binaryPath,
    )
    .option("--simulate", "grade with skillgym sim's scripted verdicts (offline, free)")
    .option("--sim-script <file>", "simulator script with a `judge` section")
    .option("--json", "print the result as JSON")
    .action(async (iterationDir: string, flags: GradeFlags) => {
      // A sandboxed iteration is graded sandboxed: its checks (gradeIterations sees to them) and an agent judge.
      const sandbox = await iterationSandboxed(iterationDir);
      const setup = createSetup({ ...flags, ...(sandbox ? { sandbox: true } : {}) });
      const interrupt = interruptSignal(() => io.err("\ncancelling grading\n"));
      try {
        const parts = await gradeIterations({
          iterationDir,
          ...(flags.force ? { force: true } : {}),
          concurrency: flags.concurrency,
          // The suite's `env` only: its folder's sim-script.json is no judge's unless --sim-script names it.
          createGrader: async (suite) => judgeGrader(await setup.judge({ env: suite.env }), interrupt.signal),
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
        const result = totalOf(parts);
        if (flags.json) {
          // Stryker disable next-line MethodExpression: equivalent, every part names its agent or none does
          const several = parts.some((p) => p.agent !== undefined);
          const agents = parts.map((p) => ({ agent: p.agent, iteration_dir: p.iterationDir, ...p.result }));
          io.out(`${JSON.stringify(several ? { ...result, agents } : result, null, 2)}\n`);
        } else {
          const cancelled = interrupt.signal.aborted ? "cancelled: " : "";
          for (const part of parts)
            io.out(`${cancelled}${part.agent ? `${part.agent}: ` : ""}${gradedText(part.result)}\n`);
        }
        if (interrupt.signal.aborted) io.setExitCode(130);
        else if (result.errors.length > 0 && result.graded === 0) io.setExitCode(3);
      } finally {
        interrupt.dispose();
        await setup.close();
      }
    });
}
