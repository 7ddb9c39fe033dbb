import { pairedDelta } from "../bench/paired-delta.js";
import { readIteration } from "../bench/read-iteration.js";
import { defaultBootstrap } from "../bench/statistics.js";
import type { BaselineConfiguration } from "../contracts/benchmark.js";
import type { ConfigurationName } from "../contracts/run-record.js";
import { evalDirName } from "../runlog/layout.js";
import type { ResolvedEval } from "../suite/model.js";
import { planRuns, type RunSpec } from "./plan.js";

/** `--adaptive`: after the fixed runs, more paired runs for the evals whose difference is still uncertain. */
export interface AdaptiveRuns {
  /** The most runs an eval gets in each configuration (`--max-runs`). */
  maxRuns: number;
}

/** An eval's paired with/without comparison so far: whether its 95% interval excludes zero. */
export interface EvalCertainty {
  /** The eval's folder in the iteration (`eval-<id>`). */
  folder: string;
  /** False while the interval includes zero, or while fewer than two pairs exist to draw one. */
  settled: boolean;
}

/** Which evals get another paired run: those not settled and still under the cap. Pure. */
export function evalsToExtend(
  certainty: readonly EvalCertainty[],
  runsSoFar: ReadonlyMap<string, number>,
  maxRuns: number,
): string[] {
  return certainty.filter((c) => !c.settled && (runsSoFar.get(c.folder) ?? 0) < maxRuns).map((c) => c.folder);
}

/** The iteration's gradings read the way the benchmark reads them, and each eval's paired delta from them. */
export async function evalCertainty(
  iterationDir: string,
  baseline: BaselineConfiguration,
): Promise<EvalCertainty[]> {
  const data = await readIteration(iterationDir);
  const { perEval } = pairedDelta(data.evals, data.runs, baseline, defaultBootstrap);
  return data.evals.map((e, i) => ({
    folder: e.folder,
    settled: perEval[i]?.delta?.distinguishable === true,
  }));
}

/**
 * Adds rounds after the fixed runs: each round gives every uncertain eval one more run in each configuration (a
 * pair), as an ordinary `run-<k>` folder, until every eval's interval excludes zero or reaches the cap.
 */
export async function runAdaptiveRounds<R>(input: {
  adaptive: AdaptiveRuns;
  iterationDir: string;
  evals: readonly ResolvedEval[];
  configurations: readonly ConfigurationName[];
  runs: number;
  defaultTimeoutSeconds: number;
  schedule: (specs: RunSpec[]) => Promise<R[]>;
  stopped: () => boolean;
  onRound?: (info: { added: number; evals: string[] }) => void;
}): Promise<{ records: R[]; planned: number }> {
  const baseline = input.configurations.find((c): c is BaselineConfiguration => c !== "with_skill");
  const records: R[] = [];
  let planned = 0;
  if (!baseline) return { records, planned };
  const runsSoFar = new Map(input.evals.map((e) => [evalDirName(e.id), input.runs]));
  while (!input.stopped()) {
    const next = evalsToExtend(
      await evalCertainty(input.iterationDir, baseline),
      runsSoFar,
      input.adaptive.maxRuns,
    );
    if (next.length === 0) break;
    const specs = next.flatMap((key) => {
      const e = input.evals.find((x) => evalDirName(x.id) === key);
      const k = (runsSoFar.get(key) ?? 0) + 1;
      runsSoFar.set(key, k);
      if (!e) return [];
      return planRuns({
        evals: [e],
        configurations: input.configurations,
        runs: k,
        iterationDir: input.iterationDir,
        defaultTimeoutSeconds: input.defaultTimeoutSeconds,
      }).filter((s) => s.runNumber === k);
    });
    planned += specs.length;
    input.onRound?.({ added: specs.length, evals: next });
    records.push(...(await input.schedule(specs)));
  }
  return { records, planned };
}
