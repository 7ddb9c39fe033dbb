import { appendFile } from "node:fs/promises";
import type { Command } from "commander";
import { diffIterations, regressionLines, writeDiff } from "../../diff/index.js";
import { ExitCode } from "../../errors.js";
import type { Io } from "../io.js";
import { effectFloorOption, nonNegativeInt } from "../options.js";

interface DiffFlags {
  effectFloor: number;
  seed: number;
  out?: string;
  failOnRegression?: boolean;
  json?: boolean;
}

export function registerDiff(program: Command, io: Io, env: NodeJS.ProcessEnv = process.env): void {
  program
    .command("diff")
    .description(
      "compare two iterations: each eval and trigger query improved, regressed, unchanged or inconclusive",
    )
    .argument("<iteration-a>", "the earlier iteration, e.g. main's, downloaded as an artifact")
    .argument("<iteration-b>", "the later iteration; diff.json and diff.md are written into it")
    .option(...effectFloorOption)
    .option("--seed <n>", "seed of the bootstrap interval", nonNegativeInt, 1)
    .option("--out <dir>", "write diff.json and diff.md here instead")
    .option("--fail-on-regression", "exit 1 when an eval or trigger query regressed beyond the floor")
    .option("--json", "print diff.json instead of the markdown (the paths go to stderr)")
    .action(async (a: string, b: string, flags: DiffFlags) => {
      const report = await diffIterations(a, b, { effectFloor: flags.effectFloor, seed: flags.seed });
      const written = await writeDiff(report, flags.out);
      const paths = `wrote ${written.jsonPath}\nwrote ${written.mdPath}\n`;
      if (flags.json) {
        io.out(`${JSON.stringify(report, null, 2)}\n`);
        io.err(paths);
      } else io.out(`${written.markdown}\n${paths}`);
      const regressed = regressionLines(report);
      if (env.GITHUB_STEP_SUMMARY)
        await appendFile(
          env.GITHUB_STEP_SUMMARY,
          `## skillgym diff\n\n${regressed.length > 0 ? regressed.map((l) => `- ❌ ${l}`).join("\n") : "No regression beyond the floor."}\n\n`,
        );
      if (flags.failOnRegression && regressed.length > 0) {
        io.err(`${regressed.join("\n")}\n`);
        io.setExitCode(ExitCode.gateFailed);
      }
    });
}
