import type { Command } from "commander";
import { ExitCode } from "../../errors.js";
import { mergeShards } from "../../merge/index.js";
import { evaluateGates } from "../../pipeline/gates.js";
import { partialText } from "../../shard/index.js";
import { type CiFlags, reportToCi, withJunitOption } from "../ci-flags.js";
import type { Io } from "../io.js";
import { fraction } from "../options.js";
import { matrixLines } from "../reporters/matrix-summary.js";
import { pipelineSummaryLines } from "../reporters/pipeline-summary.js";

interface MergeFlags extends CiFlags {
  into: string;
  partial?: boolean;
  minPassRate?: number;
  minTriggerAccuracy?: number;
  json?: boolean;
}

export function registerMerge(program: Command, io: Io): void {
  withJunitOption(
    program
      .command("merge")
      .description(
        "join the folders of a `--shard i/n` run into one ordinary iteration, its benchmark and report",
      )
      .argument("<shard-dirs...>", "each shard's workspace (or its iteration folder)")
      .requiredOption("--into <workspace>", "the workspace whose next iteration-<N> receives the merge")
      .option(
        "--partial",
        "merge what there is (shards missing, interrupted or short of runs) and record what is missing",
      )
      .option("--min-pass-rate <x>", "gate: with_skill pass rate at least x (0..1)", fraction)
      .option("--min-trigger-accuracy <x>", "gate: trigger accuracy at least x (0..1)", fraction)
      .option("--json", "print the result as JSON"),
  ).action(async (shardDirs: string[], flags: MergeFlags) => {
    const result = await mergeShards({
      shardDirs,
      into: flags.into,
      ...(flags.partial ? { partial: true } : {}),
    });
    const wanted = { minPassRate: flags.minPassRate, minTriggerAccuracy: flags.minTriggerAccuracy };
    // With several agents every agent meets the gates, each named in its verdicts.
    const gates = result.agents
      ? result.agents.flatMap(({ agent, merged }) =>
          evaluateGates(wanted, merged.benchmark, merged.triggers).map((g) => ({
            ...g,
            agent,
            message: `${agent}: ${g.message}`,
          })),
        )
      : evaluateGates(wanted, result.benchmark, result.triggers);
    const m = result.mergedFrom;
    if (flags.json)
      io.out(
        `${JSON.stringify({ iteration_dir: result.iterationDir, merged_from: m, ...(result.partial ? { partial: result.partial } : {}), eval_runs: result.evalRuns, trigger_runs: result.triggerRuns, pass_rate: result.benchmark?.run_summary, triggers: result.triggers?.summary, ...(result.matrix ? { agents: result.matrix.agents } : {}), gates, report: result.reportFile }, null, 2)}\n`,
      );
    else {
      io.out(
        `merged shards ${m.shards.join(", ")} of ${m.count}: ${result.evalRuns} eval runs, ${result.triggerRuns} trigger runs into ${result.iterationDir}\n`,
      );
      if (result.partial) io.out(`${partialText(result.partial)}\n`);
      // One agent's merge says what `run` says of an unsharded run; several agents', the matrix.
      if (result.run) io.out(`${pipelineSummaryLines({ ...result.run, gates }).join("\n")}\n`);
      else {
        if (result.simulated)
          io.out(
            "SIMULATED: skillgym sim stood in for the model; these results test the suite, not the skill.\n",
          );
        if (result.matrix) io.out(`${matrixLines(result.matrix).join("\n")}\n`);
        for (const g of gates) io.out(`gate ${g.name}: ${g.passed ? "passed" : "FAILED"} (${g.message})\n`);
        io.out(`report: ${result.reportFile}\n`);
      }
    }
    await reportToCi(io, result.iterationDir, result.skillName, flags, gates);
    if (gates.some((g) => !g.passed)) io.setExitCode(ExitCode.gateFailed);
  });
}
