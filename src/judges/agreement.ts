import type { BootstrapOptions } from "../bench/statistics.js";
import type { Disagreement, HumanAgreement, JudgePair, SelfConsistency } from "../contracts/judges.js";
import { agreementOf, type RatedPair } from "./kappa.js";
import type { GradedItem, ItemVerdict, VerdictTable } from "./verdicts.js";

interface Compared {
  pairs: RatedPair[];
  disagreements: Disagreement[];
}

// Two raters compared on the items both rated; a judge's first verdict of an item stands for it (repeats are its own).
function compare(
  items: ReadonlyMap<string, GradedItem>,
  a: ReadonlyMap<string, readonly ItemVerdict[]> | undefined,
  b: ReadonlyMap<string, readonly ItemVerdict[]> | undefined,
): Compared {
  const pairs: RatedPair[] = [];
  const disagreements: Disagreement[] = [];
  for (const [key, item] of items) {
    const left = a?.get(key)?.[0];
    const right = b?.get(key)?.[0];
    if (!left || !right) continue;
    pairs.push([left.passed, right.passed]);
    if (left.passed !== right.passed)
      disagreements.push({
        run_id: item.runId,
        eval_id: item.evalId,
        text: item.text,
        a: { ...left },
        b: { ...right },
      });
  }
  return { pairs, disagreements };
}

/** Every pair of judges, in the order named: percent agreement, κ with its interval, and where they differ. */
export function judgePairs(
  judges: readonly string[],
  items: ReadonlyMap<string, GradedItem>,
  table: VerdictTable,
  bootstrap?: BootstrapOptions,
): JudgePair[] {
  const result: JudgePair[] = [];
  for (const [i, a] of judges.entries()) {
    for (const b of judges.slice(i + 1)) {
      const { pairs, disagreements } = compare(items, table.get(a), table.get(b));
      result.push({ a, b, ...agreementOf(pairs, bootstrap), disagreements });
    }
  }
  return result;
}

/** Each judge against the reviewers' truth, on the items a reviewer marked. */
export function humanAgreement(
  judges: readonly string[],
  items: ReadonlyMap<string, GradedItem>,
  table: VerdictTable,
  truth: ReadonlyMap<string, ItemVerdict>,
  bootstrap?: BootstrapOptions,
): HumanAgreement[] {
  if (truth.size === 0) return [];
  const human = new Map([...truth].map(([key, verdict]) => [key, [verdict]]));
  return judges.map((judge) => {
    const { pairs, disagreements } = compare(items, table.get(judge), human);
    return { judge, ...agreementOf(pairs, bootstrap), disagreements };
  });
}

/** How often each judge's repeated verdicts on an item differ; only items graded more than once count. */
export function selfConsistency(
  judges: readonly string[],
  items: ReadonlyMap<string, GradedItem>,
  table: VerdictTable,
): SelfConsistency[] {
  return judges.map((judge) => {
    let n = 0;
    const flipped: SelfConsistency["flipped"] = [];
    for (const [key, item] of items) {
      const verdicts = table.get(judge)?.get(key) ?? [];
      if (verdicts.length < 2) continue;
      n++;
      if (verdicts.some((v) => v.passed !== verdicts[0]!.passed))
        flipped.push({ run_id: item.runId, eval_id: item.evalId, text: item.text });
    }
    const flips = flipped.length;
    return {
      judge,
      n,
      flips,
      flip_rate: n === 0 ? null : Math.round((flips / n) * 10_000) / 10_000,
      flipped,
    };
  });
}
