import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { OptimizeResults } from "../contracts/optimize-results.js";
import { defaultUnitCosts } from "../pipeline/estimate.js";
import { readJsonIfPresent } from "../runlog/atomic-write.js";

export interface OptimizeUnitCosts {
  triggerRunUsd: number;
  improverCallUsd: number;
  /** Where the unit costs come from: an earlier optimization in the workspace, or the defaults. */
  source: string;
}

export interface OptimizeEstimate {
  /** Evaluations at most: the original plus one per iteration. */
  evaluations: number;
  queries: number;
  runs: number;
  triggerRuns: number;
  /** One per iteration; a re-ask can double it. */
  improverCalls: number;
  costUsd: number;
  unit: OptimizeUnitCosts;
}

export const freeUnitCosts: OptimizeUnitCosts = {
  triggerRunUsd: 0,
  improverCallUsd: 0,
  source: "simulated: skillgym sim costs nothing",
};

/** The most the loop can start: every iteration evaluates every train and test query `runs` times. */
export function estimateOptimize(input: {
  queries: number;
  runs: number;
  maxIterations: number;
  unit: OptimizeUnitCosts;
}): OptimizeEstimate {
  const evaluations = input.maxIterations + 1;
  const triggerRuns = evaluations * input.queries * input.runs;
  const improverCalls = input.maxIterations;
  return {
    evaluations,
    queries: input.queries,
    runs: input.runs,
    triggerRuns,
    improverCalls,
    costUsd: triggerRuns * input.unit.triggerRunUsd + improverCalls * input.unit.improverCallUsd,
    unit: input.unit,
  };
}

/** Unit costs measured by the latest real (not simulated) optimization in this workspace, else the defaults. */
export async function unitCostsFromOptimizations(workspace: string): Promise<OptimizeUnitCosts> {
  // Stryker disable next-line ArrayDeclaration: equivalent, a name in a folder that could not be read has no results.json to read
  let names: string[] = [];
  try {
    names = (await readdir(workspace))
      .filter((n) => n.startsWith("optimize-"))
      .sort()
      .reverse();
  } catch {}
  for (const name of names) {
    const parsed = OptimizeResults.safeParse(await readJsonIfPresent(join(workspace, name, "results.json")));
    if (!parsed.success || parsed.data.simulated) continue;
    let runs = 0;
    let runCost = 0;
    let calls = 0;
    let callCost = 0;
    for (const it of parsed.data.iterations) {
      const improver = it.improver?.cost_usd ?? 0;
      if (it.improver) {
        calls++;
        callCost += improver;
      }
      runs += it.trigger_runs + (it.reused_runs ?? 0);
      runCost += it.cost_usd - improver;
    }
    if (runs > 0 && runCost > 0)
      return {
        triggerRunUsd: runCost / runs,
        improverCallUsd: callCost > 0 ? callCost / calls : defaultUnitCosts.judgeCallUsd,
        source: `measured by ${name}`,
      };
  }
  return {
    triggerRunUsd: defaultUnitCosts.triggerRunUsd,
    improverCallUsd: defaultUnitCosts.judgeCallUsd,
    source: "rough defaults (no earlier real optimization in this workspace)",
  };
}
