import type { Benchmark } from "../contracts/benchmark.js";
import type { TriggerResults } from "../contracts/trigger-results.js";

export interface Gates {
  minPassRate?: number;
  minTriggerAccuracy?: number;
}

export interface GateResult {
  name: string;
  /** In a run of several agents: whose results the gate measured. */
  agent?: string;
  passed: boolean;
  message: string;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** CI gates over the results; a gate whose measure is missing fails (nothing measured is not a pass). */
export function evaluateGates(
  gates: Gates,
  benchmark: Benchmark | undefined,
  triggers: TriggerResults | undefined,
): GateResult[] {
  const results: GateResult[] = [];
  if (gates.minPassRate !== undefined) {
    const rate = benchmark?.run_summary.with_skill?.pass_rate.mean;
    const graded = benchmark?.runs.some(
      (r) => r.configuration === "with_skill" && !("error" in r && r.error),
    );
    results.push(
      rate === undefined || !graded
        ? {
            name: "min-pass-rate",
            passed: false,
            message: "no graded with_skill runs to measure the pass rate",
          }
        : {
            name: "min-pass-rate",
            passed: rate >= gates.minPassRate,
            message: `with_skill pass rate ${pct(rate)} ${rate >= gates.minPassRate ? ">=" : "<"} ${pct(gates.minPassRate)}`,
          },
    );
  }
  if (gates.minTriggerAccuracy !== undefined) {
    const accuracy = triggers?.summary.accuracy;
    results.push(
      accuracy === undefined || accuracy === null
        ? {
            name: "min-trigger-accuracy",
            passed: false,
            message: "no scored trigger runs to measure accuracy",
          }
        : {
            name: "min-trigger-accuracy",
            passed: accuracy >= gates.minTriggerAccuracy,
            message: `trigger accuracy ${pct(accuracy)} ${accuracy >= gates.minTriggerAccuracy ? ">=" : "<"} ${pct(gates.minTriggerAccuracy)}`,
          },
    );
  }
  return results;
}
