import type { Activation } from "../contracts/activation.js";
import type { Configuration } from "../contracts/benchmark.js";
import type { EvalId } from "../contracts/evals.js";
import type { Grading } from "../contracts/grading.js";
import type { AmbiguousExpectation } from "../contracts/judges.js";
import type { Metrics } from "../contracts/metrics.js";
import type { IterationRecord } from "../contracts/run-record.js";
import type { Timing } from "../contracts/timing.js";

/**
 * Why a run has no usable result, so it is left out of the pass rates: the agent run failed (`errored`), nobody graded
 * it yet (`ungraded`), the iteration planned it but it never ran (`not_run`), one of its files is broken (`unreadable`),
 * or it saw the skill it should not have (`contaminated`, from its activation.json).
 */
export type ExclusionKind = "errored" | "ungraded" | "not_run" | "unreadable" | "contaminated";

export interface RunExclusion {
  kind: ExclusionKind;
  /** Short, for grouping in notes: the outcome ("overloaded", "timeout"…) or the kind. */
  reason: string;
  message: string;
}

/** One run folder of an iteration, read into plain data. */
export interface RunData {
  evalId: EvalId;
  evalName: string;
  configuration: Configuration;
  runNumber: number;
  grading?: Grading;
  timing?: Timing;
  metrics?: Metrics;
  /** activation.json: what the run did with the skill. */
  activation?: Activation;
  /** timing.json's `outcome`: "success" or an error kind ("overloaded", "timeout"…). */
  outcome?: string;
  simulated?: boolean;
  /** The model the agent reported (timing.json `model`). */
  model?: string;
  /** The judge model, when grading.json names one. */
  judgeModel?: string;
  exclusion?: RunExclusion;
  /** Problems that do not exclude the run (a missing metrics.json). */
  problems: string[];
}

export interface EvalData {
  /** eval_metadata.json's integer `eval_id` (skill-creator's); the folder's id only when that file is unreadable. */
  id: EvalId;
  name: string;
  /** `eval-<the suite's id>` */
  folder: string;
}

export interface IterationData {
  dir: string;
  record?: IterationRecord;
  evals: EvalData[];
  /** Configurations present, in the fixed order with_skill, without_skill, old_skill. */
  configurations: Configuration[];
  runs: RunData[];
  /** Problems with the iteration as a whole (a malformed iteration.json, unknown folders). */
  problems: string[];
  /** Expectations judges disagree or flip on, from judges.json when `skillgym judges` wrote one. */
  ambiguous?: AmbiguousExpectation[];
}

export function isGraded(run: RunData): run is RunData & { grading: Grading } {
  return run.exclusion === undefined && run.grading !== undefined;
}

export function evalKey(id: EvalId): string {
  return String(id);
}

/** Seconds the agent ran: timing.json, else what grading.json copied of it (whose total includes grading). */
export function timeSeconds(run: RunData): number | undefined {
  const t = run.timing;
  if (!t)
    return run.grading?.timing?.executor_duration_seconds ?? run.grading?.timing?.total_duration_seconds;
  return (
    t.total_duration_seconds ??
    t.executor_duration_seconds ??
    (t.duration_ms !== undefined ? t.duration_ms / 1000 : undefined)
  );
}

export function tokensUsed(run: RunData): number | undefined {
  return run.timing?.total_tokens ?? run.grading?.timing?.total_tokens;
}
