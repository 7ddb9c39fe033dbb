import { resolve } from "node:path";
import { type BootstrapOptions, defaultBootstrap } from "../bench/statistics.js";
import { DEFAULT_EFFECT_FLOOR } from "../bench/verdict.js";
import type { DiffPart, DiffReport } from "../contracts/diff.js";
import { compareEvals } from "./compare-evals.js";
import { compareQueries } from "./compare-queries.js";
import { readSides, type Side } from "./read-side.js";

export interface DiffOptions {
  /** The smallest move (a pass-rate difference) worth reporting; default 0.05. */
  effectFloor?: number;
  seed?: number;
  resamples?: number;
}

export const diffMethod =
  "bootstrap of mean(B) − mean(A) of the with_skill pass rate: evals resampled, then each iteration's runs within an eval apart; percentile interval";

/** One pair of sides compared: evals by id, trigger queries by their text. */
export function diffPart(
  a: Side,
  b: Side,
  floor: number,
  bootstrap: BootstrapOptions,
  agent?: string,
): DiffPart {
  return {
    ...(agent ? { agent } : {}),
    ...compareEvals(a.evals, b.evals, floor, bootstrap),
    ...compareQueries(a.triggers, b.triggers),
  };
}

export function countRegressions(parts: readonly DiffPart[]): number {
  return parts.reduce(
    (sum, p) =>
      sum +
      p.evals.filter((e) => e.change === "regressed").length +
      p.queries.filter((q) => q.change === "regressed").length,
    0,
  );
}

/** Compares iteration B with iteration A (per agent, for iterations of several agents). */
export async function diffIterations(
  aDir: string,
  bDir: string,
  options: DiffOptions = {},
): Promise<DiffReport> {
  const floor = options.effectFloor ?? DEFAULT_EFFECT_FLOOR;
  const bootstrap: BootstrapOptions = {
    ...defaultBootstrap,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.resamples !== undefined ? { resamples: options.resamples } : {}),
  };
  const pairs = await readSides(aDir, bDir);
  const parts = pairs.map((p) => diffPart(p.a, p.b, floor, bootstrap, p.agent));
  return {
    a: resolve(aDir),
    b: resolve(bDir),
    effect_floor: floor,
    method: diffMethod,
    parts,
    regressions: countRegressions(parts),
  };
}
