import { Command, CommanderError } from "commander";
import { ExitCode, exitCodeFor, SkillgymError } from "../errors.js";
import { registerBench } from "./commands/bench.js";
import { registerCatalog } from "./commands/catalog.js";
import { registerCompare } from "./commands/compare.js";
import { registerDiff } from "./commands/diff.js";
import { registerDraftEvals } from "./commands/draft-evals.js";
import { registerEval } from "./commands/eval.js";
import { registerGrade } from "./commands/grade.js";
import { registerInit } from "./commands/init.js";
import { registerJudges } from "./commands/judges.js";
import { registerMerge } from "./commands/merge.js";
import { registerNoise } from "./commands/noise.js";
import { registerOptimize } from "./commands/optimize.js";
import { registerPackage } from "./commands/package.js";
import { registerRun } from "./commands/run.js";
import { registerSchema } from "./commands/schema.js";
import { registerSim } from "./commands/sim.js";
import { registerTriggers } from "./commands/triggers.js";
import { registerTune } from "./commands/tune.js";
import { registerValidate } from "./commands/validate.js";
import { registerView } from "./commands/view.js";
import { createIo, type Io } from "./io.js";

export function buildProgram(io: Io): Command {
  const program = new Command("skillgym")
    .description(
      "Test, benchmark and improve Agent Skills by running real coding agents against eval suites.",
    )
    .version("0.1.0")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .showHelpAfterError("(see `skillgym --help`)");
  registerValidate(program, io);
  registerPackage(program, io);
  registerSchema(program, io);
  registerEval(program, io);
  registerTriggers(program, io);
  registerCatalog(program, io);
  registerRun(program, io);
  registerMerge(program, io);
  registerGrade(program, io);
  registerBench(program, io);
  registerDiff(program, io);
  registerNoise(program, io);
  registerCompare(program, io);
  registerJudges(program, io);
  registerView(program, io);
  registerSim(program, io);
  registerTune(program, io);
  registerOptimize(program, io);
  registerInit(program, io);
  registerDraftEvals(program, io);
  // A bad flag prints its one-line error and where the help is, not the whole help.
  for (const command of program.commands)
    command
      .exitOverride()
      .configureOutput(program.configureOutput())
      .showHelpAfterError(`(see \`skillgym ${command.name()} --help\`)`);
  return program;
}

/** Runs the CLI and resolves to the process exit code; never throws. */
export async function main(argv: string[], io: Io = createIo()): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: "user" });
    return io.exitCode();
  } catch (error) {
    io.status(undefined);
    if (error instanceof CommanderError) {
      // Help and the version asked for come with exit code 0 (help with none given: 1); any other is bad input.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.badInput;
    }
    if (error instanceof SkillgymError) {
      io.err(`skillgym: ${error.message}\n${error.hint ? `  fix: ${error.hint}\n` : ""}`);
      return exitCodeFor(error);
    }
    io.err(
      `skillgym: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return ExitCode.agentUnavailable;
  }
}
