import type { Configuration } from "../contracts/benchmark.js";
import type { EvalId } from "../contracts/evals.js";
import { evalKey, isGraded, type RunData } from "./model.js";

export interface PassCount {
  passed: number;
  runs: number;
}

/** How often one assertion of one eval passed, per configuration, over the graded runs. */
export interface AssertionTally {
  evalId: EvalId;
  evalName: string;
  text: string;
  byConfiguration: Map<Configuration, PassCount>;
}

/** Tallies every assertion of every eval, in the order the runs list them first. */
export function tallyAssertions(runs: readonly RunData[]): AssertionTally[] {
  const tallies = new Map<string, AssertionTally>();
  for (const run of runs) {
    if (!isGraded(run)) continue;
    const seen = new Set<string>();
    for (const expectation of run.grading.expectations) {
      // An assertion listed twice in one grading counts once for the run.
      if (seen.has(expectation.text)) continue;
      seen.add(expectation.text);
      const key = JSON.stringify([evalKey(run.evalId), expectation.text]);
      let tally = tallies.get(key);
      if (!tally) {
        tally = {
          evalId: run.evalId,
          evalName: run.evalName,
          text: expectation.text,
          byConfiguration: new Map(),
        };
        tallies.set(key, tally);
      }
      const count = tally.byConfiguration.get(run.configuration) ?? { passed: 0, runs: 0 };
      tally.byConfiguration.set(run.configuration, {
        passed: count.passed + (expectation.passed ? 1 : 0),
        runs: count.runs + 1,
      });
    }
  }
  return [...tallies.values()];
}

/** Passes in some runs and fails in others of the same eval and configuration. */
export function isFlaky(count: PassCount): boolean {
  // A pass and a fail take two runs at least.
  return count.passed > 0 && count.passed < count.runs;
}
