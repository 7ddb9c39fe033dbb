import type { Agent } from "../agents/agent.js";
import type { Skill } from "../skill/index.js";
import type { Suite } from "../suite/index.js";
import type { Budget } from "./budget.js";
import { type LoadedInputs, loadInputs } from "./load-inputs.js";
import type { RetryPolicy } from "./retry.js";

export type RunInputs = Pick<LoadedInputs, "skill" | "suite">;

/** What an eval run and a trigger run are both told (the pipeline, tune and optimize pass it on). */
export interface RunOptions {
  skillPath: string;
  evalsPath?: string;
  projectRoot?: string;
  workspace?: string;
  /** The skill and suite already loaded from these paths (the pipeline loads them once for both kinds of run). */
  inputs?: RunInputs;
  runs: number;
  concurrency: number;
  timeoutSeconds: number;
  model?: string;
  retry?: RetryPolicy;
  signal?: AbortSignal;
  /** Made only after every input has been checked; receives what was loaded (to find a simulator script). */
  createAgent: (inputs: { skill: Skill; suite: Suite }) => Promise<Agent>;
  /** Stops scheduling new runs before this spending limit would be crossed. */
  budget?: Budget;
}

/** The inputs the caller loaded, or loads and checks them from the options' paths. */
export async function runInputs(options: RunOptions, need: "evals" | "triggers"): Promise<RunInputs> {
  if (options.inputs) return options.inputs;
  return loadInputs({
    skillPath: options.skillPath,
    ...(options.evalsPath ? { evalsPath: options.evalsPath } : {}),
    ...(options.projectRoot ? { projectRoot: options.projectRoot } : {}),
    need,
  });
}
