import type { Command } from "commander";
import type { GateVerdict } from "../ci/index.js";
import { writeCiReports } from "../ci/index.js";
import type { Shard } from "../shard/index.js";
import type { Io } from "./io.js";
import { shardValue } from "./options.js";

export interface CiFlags {
  shard?: Shard;
  junit?: string;
}

export function withShardOption(command: Command): Command {
  return command.option(
    "--shard <i/n>",
    "run only the i-th of n parts of the plan (CI machines split the work; `skillgym merge` joins them)",
    shardValue,
  );
}

export function withJunitOption(command: Command): Command {
  return command.option("--junit <file>", "also write the results as JUnit XML");
}

/** JUnit, the GitHub step summary and annotations, as the flags and the CI's environment ask. */
export async function reportToCi(
  io: Io,
  iterationDir: string,
  skillName: string,
  flags: CiFlags,
  gates: readonly GateVerdict[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const lines = await writeCiReports(iterationDir, {
    skillName,
    ...(flags.junit ? { junitFile: flags.junit } : {}),
    ...(env.GITHUB_STEP_SUMMARY ? { stepSummaryFile: env.GITHUB_STEP_SUMMARY } : {}),
    annotate: env.GITHUB_ACTIONS === "true",
    gates,
  });
  for (const line of lines) io.out(`${line}\n`);
}
