import type { ConfigurationName } from "../contracts/run-record.js";
import { runDir } from "../runlog/layout.js";
import type { ResolvedEval } from "../suite/model.js";

/** One agent run to make: an eval, in a configuration, the k-th time. */
export interface RunSpec {
  eval: ResolvedEval;
  evalName: string;
  configuration: ConfigurationName;
  runNumber: number;
  /** `iteration-<N>/eval-<id>/<configuration>/run-<k>/` */
  runDir: string;
  timeoutMs: number;
}

export interface RunPlanInput {
  evals: readonly ResolvedEval[];
  configurations: readonly ConfigurationName[];
  runs: number;
  iterationDir: string;
  defaultTimeoutSeconds: number;
}

export function evalName(e: ResolvedEval): string {
  return e.name ?? `eval-${e.id}`;
}

// Configurations of the same eval and run number sit side by side, so an interrupted iteration stays comparable.
export function planRuns(input: RunPlanInput): RunSpec[] {
  const specs: RunSpec[] = [];
  for (let runNumber = 1; runNumber <= input.runs; runNumber++) {
    for (const e of input.evals) {
      for (const configuration of input.configurations) {
        specs.push({
          eval: e,
          evalName: evalName(e),
          configuration,
          runNumber,
          runDir: runDir(input.iterationDir, e.id, configuration, runNumber),
          timeoutMs: (e.timeout ?? input.defaultTimeoutSeconds) * 1000,
        });
      }
    }
  }
  return specs;
}

// `--only` takes the suite's ids; a token that is no id may be the eval_id skill-creator's files show for it.
export function selectEvals(
  evals: readonly ResolvedEval[],
  only: readonly string[] | undefined,
): ResolvedEval[] {
  if (!only || only.length === 0) return [...evals];
  return evals.filter((e) => only.some((token) => selects(token, e, evals)));
}

export function selects(token: string, e: ResolvedEval, evals: readonly ResolvedEval[]): boolean {
  if (String(e.id) === token) return true;
  return String(e.numericId) === token && !evals.some((other) => String(other.id) === token);
}
