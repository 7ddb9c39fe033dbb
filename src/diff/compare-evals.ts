import type { BootstrapOptions } from "../bench/statistics.js";
import type { DiffPart, EvalDiff } from "../contracts/diff.js";
import type { EvalId } from "../contracts/evals.js";
import { changeOf } from "./change.js";
import { twoSampleBootstrap } from "./two-sample.js";

/** One eval of one iteration: its graded with_skill pass rates. */
export interface EvalRates {
  id: EvalId;
  name?: string;
  rates: readonly number[];
}

function meanOrNull(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return Math.round((values.reduce((s, v) => s + v, 0) / values.length) * 10_000) / 10_000;
}

function maxRuns(evals: readonly EvalDiff[]): number {
  return Math.max(1, ...evals.map((e) => Math.min(e.a_runs, e.b_runs)));
}

/** Matches evals by id and labels each, and all matched together, improved, regressed, unchanged or inconclusive. */
export function compareEvals(
  a: readonly EvalRates[],
  b: readonly EvalRates[],
  floor: number,
  options: BootstrapOptions,
): Pick<DiffPart, "evals" | "only_in_a" | "only_in_b" | "overall"> {
  const inB = new Map(b.map((e) => [String(e.id), e]));
  const inA = new Set(a.map((e) => String(e.id)));
  const matched = a.flatMap((e) => {
    const other = inB.get(String(e.id));
    return other ? [{ a: e, b: other }] : [];
  });
  const evals = matched.map(({ a: left, b: right }): EvalDiff => {
    const difference = twoSampleBootstrap([{ a: left.rates, b: right.rates }], options);
    const runs = Math.min(left.rates.length, right.rates.length);
    return {
      eval_id: left.id,
      ...((right.name ?? left.name) ? { eval_name: right.name ?? left.name } : {}),
      a_pass_rate: meanOrNull(left.rates),
      b_pass_rate: meanOrNull(right.rates),
      a_runs: left.rates.length,
      b_runs: right.rates.length,
      difference,
      ...changeOf(difference, floor, runs),
      ...(difference ? {} : { note: "fewer than 2 graded with_skill runs on a side: no interval" }),
    };
  });
  const comparable = matched.filter((m) => m.a.rates.length >= 2 && m.b.rates.length >= 2);
  const overallDifference = twoSampleBootstrap(
    comparable.map((m) => ({ a: m.a.rates, b: m.b.rates })),
    options,
  );
  return {
    evals,
    only_in_a: a.filter((e) => !inB.has(String(e.id))).map((e) => e.id),
    only_in_b: b.filter((e) => !inA.has(String(e.id))).map((e) => e.id),
    overall:
      comparable.length === 0
        ? null
        : { difference: overallDifference, ...changeOf(overallDifference, floor, maxRuns(evals)) },
  };
}
