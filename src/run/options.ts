import { join, resolve } from "node:path";
import type { Agent } from "../agents/agent.js";
import type { Shard } from "../shard/index.js";
import type { Skill } from "../skill/index.js";
import type { StoreSettings } from "../store/index.js";
import type { Suite } from "../suite/index.js";
import type { OutputLimits } from "../workspace/index.js";
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
  /** Reuse stored runs whose inputs are unchanged, and store new ones (absent: no store). */
  store?: StoreRequest;
  /** Run only this part of the plan (`--shard i/n`); the iteration records the shard and the whole plan's hash. */
  shard?: Shard;
  /**
   * What an eval run's collected outputs may come to; each limit given wins over the suite's evals.json, which wins
   * over DEFAULT_OUTPUT_LIMITS. Trigger runs collect nothing.
   */
  outputLimits?: Partial<OutputLimits>;
}

/** The result store a command uses: `--cache DIR` (default `<workspace>/.skillgym-cache/`), `--fresh`. */
export interface StoreRequest {
  dir?: string;
  /** Read nothing from the store (what runs is still stored). */
  fresh?: boolean;
  /** Names the judge, so stored gradings are reused only with the same one. */
  judge?: string;
}

export const STORE_DIR = ".skillgym-cache";

export function storeSettings(request: StoreRequest, workspace: string): StoreSettings {
  return {
    dir: resolve(request.dir ?? join(workspace, STORE_DIR)),
    ...(request.fresh ? { fresh: true } : {}),
  };
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
