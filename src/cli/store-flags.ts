import type { Command } from "commander";
import type { StoreRequest } from "../run/options.js";
import type { JudgeFlags } from "./agent-setup.js";

export interface StoreFlags {
  cache?: string;
  fresh?: boolean;
}

export function withStoreOptions(command: Command): Command {
  return command
    .option(
      "--cache <dir>",
      "the result store that serves unchanged runs (default <workspace>/.skillgym-cache; share one between workspaces)",
    )
    .option(
      "--fresh",
      "run everything again: read nothing from the result store (new runs are still stored)",
    );
}

/** The store a command asks for; the judge named so that a grading is reused only with the same judge. */
export function storeRequest(flags: StoreFlags & JudgeFlags & { simulate?: boolean }): StoreRequest {
  const judge = `${flags.judge ?? (flags.simulate ? "sim" : "claude-code")}:${flags.judgeModel ?? ""}:${flags.judgeBaseUrl ?? ""}`;
  return { ...(flags.cache ? { dir: flags.cache } : {}), ...(flags.fresh ? { fresh: true } : {}), judge };
}
