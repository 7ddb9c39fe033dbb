import { type Command, Option } from "commander";
import { type WrittenComparison, writeComparison } from "../../compare/index.js";
import { ExitCode } from "../../errors.js";
import { createJudge, judgeBackends } from "../../judge/create.js";
import { type JudgeBackend, JudgeError } from "../../judge/judge.js";
import { type SimServer, startSim } from "../../sim/index.js";
import type { Io } from "../io.js";
import { interruptSignal, nonNegativeInt } from "../options.js";

interface CompareFlags {
  judge: JudgeBackend;
  judgeModel?: string;
  skillA?: string;
  skillB?: string;
  analyze: boolean;
  simulate?: boolean;
  out?: string;
  seed?: number;
  json?: boolean;
}

export function registerCompare(program: Command, io: Io): void {
  program
    .command("compare")
    .description("blind A/B comparison of two runs by a judge, then an analysis of why the winner won")
    .argument("<run-dir-a>", "a run folder, e.g. <workspace>/iteration-1/eval-1/with_skill/run-1")
    .argument("<run-dir-b>", "the run folder to compare it with")
    .addOption(
      new Option("--judge <backend>", "who judges").choices([...judgeBackends]).default("claude-code"),
    )
    .option("--judge-model <model>", "the judge's model")
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
      const simulate = flags.simulate === true || flags.judge === "sim";
      let sim: SimServer | undefined;
      const interrupt = interruptSignal(() => io.err("\ncancelling the comparison\n"));
      try {
        if (simulate) sim = await startSim();
        const judge = await createJudge({
          backend: simulate ? "sim" : flags.judge,
          ...(flags.judgeModel ? { model: flags.judgeModel } : {}),
          ...(sim ? { simulatorUrl: sim.url } : {}),
        });
        const written = await writeComparison({
          runDirA,
          runDirB,
          judge,
          analyze: flags.analyze,
          ...(flags.out ? { outDir: flags.out } : {}),
          ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
          skillPaths: {
            ...(flags.skillA ? { a: flags.skillA } : {}),
            ...(flags.skillB ? { b: flags.skillB } : {}),
          },
          signal: interrupt.signal,
        });
        io.out(flags.json ? `${JSON.stringify(resultJson(written), null, 2)}\n` : resultText(written));
      } catch (error) {
        if (!(error instanceof JudgeError)) throw error;
        io.err(`skillgym: the judge failed: ${error.message}\n`);
        io.setExitCode(ExitCode.agentUnavailable);
      } finally {
        interrupt.dispose();
        await sim?.close();
      }
    });
}

function resultJson(written: WrittenComparison) {
  return {
    winner: written.comparison.winner,
    winner_run_dir: written.winnerRunDir,
    mapping: { A: written.mapping.A, B: written.mapping.B },
    reasoning: written.comparison.reasoning,
    comparison_path: written.comparisonPath,
    mapping_path: written.mappingPath,
    analysis_path: written.analysisPath ?? null,
    ...(written.analysisSkipped ? { analysis_skipped: written.analysisSkipped } : {}),
    judge_model: written.judgeModel,
    simulated: written.simulated,
    cost_usd: Number(written.costUsd.toFixed(6)),
  };
}

function resultText(written: WrittenComparison): string {
  const { comparison, mapping } = written;
  const verdict =
    comparison.winner === "TIE" ? "tie" : `${comparison.winner} wins: ${written.winnerRunDir ?? ""}`;
  const note = written.simulated ? " (simulated: skillgym sim stood in for the judge)" : "";
  const lines = [
    `${verdict}${note}`,
    `  A = ${mapping.A}`,
    `  B = ${mapping.B}`,
    `  ${comparison.reasoning}`,
    `  comparison: ${written.comparisonPath}`,
    `  labels: ${written.mappingPath}`,
  ];
  if (written.analysisPath) lines.push(`  analysis: ${written.analysisPath}`);
  else if (written.analysisSkipped === "tie") lines.push("  analysis: none (a tie has no winner to explain)");
  lines.push(`  judge: ${written.judgeModel}, $${written.costUsd.toFixed(4)}`);
  return `${lines.join("\n")}\n`;
}
