import { mulberry32 } from "../bench/statistics.js";
import type { TriggerQuery } from "../contracts/evals.js";
import { SkillgymError } from "../errors.js";

/** Train and test as positions in triggers.json, each side in file order. */
export interface QuerySplit {
  train: number[];
  test: number[];
}

function shuffled(items: readonly number[], random: () => number): number[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.min(i, Math.floor(random() * (i + 1)));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

// A class of one query cannot be on both sides: the cap at count - 1 keeps it in train, where the improver can learn
// from it (and an empty class has nothing to slice).
function heldOut(count: number, holdout: number): number {
  return Math.min(count - 1, Math.max(1, Math.round(count * holdout)));
}

/**
 * Splits the queries stratified by `should_trigger`: each class shuffled with a seeded generator and `holdout` of it
 * held out for test, at least one query of each class on each side when the class has two or more.
 */
export function splitQueries(
  queries: readonly TriggerQuery[],
  options: { holdout: number; seed: number },
): QuerySplit {
  if (!(options.holdout > 0 && options.holdout < 1)) {
    throw new SkillgymError("USAGE", `--holdout must be above 0 and below 1 (got ${options.holdout})`, {
      hint: "hold out a share of the queries for test, e.g. --holdout 0.4",
    });
  }
  const random = mulberry32(options.seed);
  const train: number[] = [];
  const test: number[] = [];
  for (const shouldTrigger of [true, false]) {
    const members = queries.flatMap((q, i) => (q.should_trigger === shouldTrigger ? [i] : []));
    const order = shuffled(members, random);
    const cut = heldOut(members.length, options.holdout);
    test.push(...order.slice(0, cut));
    train.push(...order.slice(cut));
  }
  // Each class keeps one query for train, so train is empty only when test is too.
  if (test.length === 0) {
    const positives = queries.filter((q) => q.should_trigger).length;
    throw new SkillgymError(
      "BAD_INPUT",
      `triggers.json has too few queries to hold out a test set (${positives} should trigger, ${queries.length - positives} should not)`,
      { hint: "add queries so that at least one class (should_trigger true or false) has two or more" },
    );
  }
  const byPosition = (a: number, b: number) => a - b;
  return { train: train.sort(byPosition), test: test.sort(byPosition) };
}
