import type { EvalId } from "../contracts/evals.js";
import type { AmbiguousExpectation, JudgePair, SelfConsistency } from "../contracts/judges.js";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Expectations judges disagree on or flip on, one entry per (eval, text) with a reason per pair and per judge:
 * an expectation two careful readers grade differently is likely worded so it can be read two ways.
 */
export function ambiguousExpectations(
  pairs: readonly JudgePair[],
  consistency: readonly SelfConsistency[],
): AmbiguousExpectation[] {
  const found = new Map<string, { eval_id: EvalId; text: string; reasons: string[] }>();
  const entry = (evalId: EvalId, text: string) => {
    const key = `${String(evalId)}\u0000${text}`;
    let value = found.get(key);
    if (!value) {
      value = { eval_id: evalId, text, reasons: [] };
      found.set(key, value);
    }
    return value;
  };
  const tally = (list: readonly { eval_id: EvalId; text: string }[]) => {
    const counts = new Map<string, { eval_id: EvalId; text: string; runs: number }>();
    for (const x of list) {
      const key = `${String(x.eval_id)}\u0000${x.text}`;
      const c = counts.get(key) ?? { eval_id: x.eval_id, text: x.text, runs: 0 };
      c.runs++;
      counts.set(key, c);
    }
    return [...counts.values()];
  };
  for (const pair of pairs) {
    for (const c of tally(pair.disagreements))
      entry(c.eval_id, c.text).reasons.push(`${pair.a} and ${pair.b} disagree on ${plural(c.runs, "run")}`);
  }
  for (const judge of consistency) {
    for (const c of tally(judge.flipped))
      entry(c.eval_id, c.text).reasons.push(
        `${judge.judge} changes its verdict on ${plural(c.runs, "run")} when asked again`,
      );
  }
  return [...found.values()];
}
