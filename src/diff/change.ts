import { runsToDecide, verdictOf } from "../bench/verdict.js";
import type { Change, DifferenceInterval } from "../contracts/diff.js";

const byVerdict = {
  helps: "improved",
  hurts: "regressed",
  "no effect": "unchanged",
  inconclusive: "inconclusive",
} as const satisfies Record<ReturnType<typeof verdictOf>, Change>;

/** The change an interval of B − A supports at the floor, read as a verdict is (improved = helps, …). */
export function changeOf(
  difference: DifferenceInterval | null,
  floor: number,
  runsPerSide: number,
): { change: Change; runs_to_decide?: number } {
  if (!difference) return { change: "inconclusive" };
  const change = byVerdict[verdictOf(difference, floor)];
  if (change !== "inconclusive") return { change };
  const runs = runsToDecide(difference, floor, runsPerSide);
  return { change, ...(runs !== undefined ? { runs_to_decide: runs } : {}) };
}

/** A trigger query by its verdict: pass → fail regressed, fail → pass improved; unscored on either side, inconclusive. */
export function queryChange(aPass: boolean | null, bPass: boolean | null): Change {
  if (aPass === null || bPass === null) return "inconclusive";
  if (aPass === bPass) return "unchanged";
  return bPass ? "improved" : "regressed";
}
