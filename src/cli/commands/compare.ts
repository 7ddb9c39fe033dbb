import type { Command } from "commander";
import { writeComparison } from "../../compare/index.js";
import { ExitCode } from "../../errors.js";
import { JudgeError } from "../../judge/judge.js";
import { createSetup, type JudgeFlags, withJudgeOptions } from "../agent-setup.js";
import type { Io } from "../io.js";
import { interruptSignal, nonNegativeInt } from "../options.js";
import { comparisonJson, comparisonText } from "../reporters/comparison.js";
import { spentText } from "../reporters/status-line.js";

interface CompareFlags extends JudgeFlags {
  skillA?: string;
  skillB?: string;
  analyze: boolean;
  simulate?: boolean;
  out?: string;
  seed?: number;
  json?: boolean;
}

export function registerCompare(program: Command, io: Io): void {
  withJudgeOptions(
    program
      .command("compare")
      .description("blind A/B comparison of two runs by a judge, then an analysis of why the winner won")
      .argument("<run-dir-a>", "a run folder, e.g. <workspace>/iteration-1/eval-1/with_skill/run-1")
      .argument("<run-dir-b>", "the run folder to compare it with"),
    { role: "who judges (default: claude-code)", model: "the judge's model" },
  )
    .option("--skill-a <path>", "the skill behind <run-dir-a> (default: as recorded in iteration.json)")
    .option("--skill-b <path>", "the skill behind <run-dir-b> (default: as recorded in iteration.json)")
    .option("--no-analyze", "skip the analysis of why the winner won")
    .option(
      "--simulate",
      "judge with skillgym sim, offline and free (its verdicts are scripted, not a model's)",
    )
    .option("--out <dir>", "where to write comparison-<n>.json (default: the eval folder of the two runs)")
    .option("--seed <n>", "seed for the blind labels, to reproduce them", nonNegativeInt)
    .option("--json", "print the result as JSON")
    .action(async (runDirA: string, runDirB: string, flags: CompareFlags) => {
      // --judge sim starts its own skillgym sim, as --simulate does; --simulate judges with the sim.
      const simulate = flags.simulate === true || flags.judge === "sim";
      const setup = createSetup({ ...flags, simulate, ...(simulate ? { judge: "sim" as const } : {}) });
      const interrupt = interruptSignal(() => io.err("\ncancelling the comparison\n"));
      try {
        const judge = await setup.judge();
        const written = await writeComparison({
          runDirA,
          runDirB,
          judge,
          analyze: flags.analyze,
          ...(flags.out ? { outDir: flags.out } : {}),
          seed: flags.seed,
          skillPaths: {
            ...(flags.skillA ? { a: flags.skillA } : {}),
            ...(flags.skillB ? { b: flags.skillB } : {}),
          },
          signal: interrupt.signal,
        });
        io.out(
          flags.json ? `${JSON.stringify(comparisonJson(written), null, 2)}\n` : comparisonText(written),
        );
      } catch (error) {
        if (!(error instanceof JudgeError)) throw error;
        const spent = error.costUsd ? ` (${spentText(error.costUsd, 0, 4)} spent on the judge)` : "";
        io.err(`skillgym: the judge failed: ${error.message}${spent}\n`);
        io.setExitCode(ExitCode.agentUnavailable);
      } finally {
        interrupt.dispose();
        await setup.close();
      }
    });
}
