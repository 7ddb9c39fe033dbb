import type { Command } from "commander";
import { writeBenchmark } from "../../bench/index.js";
import type { Io } from "../io.js";
import { effectFloorOption, nonNegativeInt } from "../options.js";

interface BenchFlags {
  json?: boolean;
  seed: number;
  effectFloor: number;
}

export function registerBench(program: Command, io: Io): void {
  program
    .command("bench")
    .description(
      "aggregate an iteration into benchmark.json and benchmark.md, with a paired interval for the delta",
    )
    .argument(
      "<iteration-dir>",
      "an iteration folder written by `skillgym eval`, e.g. <skill>-workspace/iteration-1",
    )
    .option(
      "--seed <n>",
      "seed of the bootstrap interval (the same seed gives the same interval)",
      nonNegativeInt,
      1,
    )
    .option(...effectFloorOption)
    .option("--json", "print benchmark.json instead of the markdown (the paths go to stderr)")
    .action(async (iterationDir: string, flags: BenchFlags) => {
      const written = await writeBenchmark(iterationDir, {
        seed: flags.seed,
        effectFloor: flags.effectFloor,
      });
      const paths = `wrote ${written.jsonPath}\nwrote ${written.mdPath}\n`;
      if (flags.json) {
        io.out(`${JSON.stringify(written.benchmark, null, 2)}\n`);
        io.err(paths);
      } else {
        io.out(`${written.markdown}\n${paths}`);
      }
    });
}
