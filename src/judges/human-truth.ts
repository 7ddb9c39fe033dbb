import type { Feedback } from "../contracts/feedback.js";
import type { GradedExpectation } from "../contracts/grading.js";
import { type ItemVerdict, itemKey } from "./verdicts.js";

/**
 * The reviewers' truth per (run, expectation): a grade marked right keeps its `passed`, one marked wrong the opposite.
 * A mark on an expectation the run's grading.json lacks is ignored; the last mark of an expectation counts.
 */
export function humanTruth(
  feedback: Feedback | undefined,
  gradings: ReadonlyMap<string, readonly GradedExpectation[]>,
): Map<string, ItemVerdict> {
  const truth = new Map<string, ItemVerdict>();
  for (const review of feedback?.reviews ?? []) {
    const graded = gradings.get(review.run_id);
    for (const mark of review.grades ?? []) {
      const original = graded?.find((x) => x.text === mark.text);
      if (!original) continue;
      const passed = mark.verdict === "right" ? original.passed : !original.passed;
      truth.set(itemKey(review.run_id, mark.text), {
        passed,
        evidence: `a reviewer marked the grade (${original.passed ? "PASS" : "FAIL"}) ${mark.verdict}`,
      });
    }
  }
  return truth;
}
