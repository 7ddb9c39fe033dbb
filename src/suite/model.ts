import type { EvalCase, TriggerQuery } from "../contracts/evals.js";
import type { DiscoveryVia } from "./discover.js";

/** A fixture to stage: `source` is absolute on this machine, `target` is POSIX and relative to the workspace. */
export interface Fixture {
  source: string;
  target: string;
}

export type ResolvedEval = EvalCase & {
  /** skill-creator's integer `eval_id`: the id when it is a number, else the eval's 1-based position in the suite. */
  numericId: number;
  /** `<suite>/<eval-id>/setup/`, applied after the base overlay. */
  overlay?: string;
  fixtures: Fixture[];
};

export interface Suite {
  dir: string;
  via: DiscoveryVia;
  evalsFile?: string;
  triggersFile?: string;
  evals: ResolvedEval[];
  triggers: TriggerQuery[];
  /** `<suite>/setup/`, applied to every eval's workspace. */
  baseOverlay?: string;
  /** Names of skillgym's variables passed on to the suite's agent runs, checks and judges (evals.json `env`). */
  env?: readonly string[];
  /** evals.json's `max_output`, `max_output_file` and `max_output_files`, in bytes and files; flags win over them. */
  outputLimits?: { totalBytes?: number; fileBytes?: number; files?: number };
}
