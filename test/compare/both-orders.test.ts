import { describe, expect, it } from "vitest";
import { compareBothOrders, reconcileOrders } from "../../src/compare/both-orders.js";
import type { ComparisonResult } from "../../src/compare/comparator.js";
import { readRun } from "../../src/compare/read-run.js";
import { JudgeError } from "../../src/judge/judge.js";
import { comparisonAnswer, RecordingJudge, TOKENS, tokenUnderA, useWorkspace } from "./fixtures.js";

const ws = useWorkspace();

function result(winner: "A" | "B" | "TIE", winnerRunDir: string | null, reasoning: string): ComparisonResult {
  return {
    comparison: {
      winner,
      reasoning,
      rubric: {
        A: { content: {}, structure: {}, content_score: 1, structure_score: 1, overall_score: 2 },
        B: { content: {}, structure: {}, content_score: 1, structure_score: 1, overall_score: 2 },
      },
      output_quality: {
        A: { score: 5, strengths: [], weaknesses: [] },
        B: { score: 5, strengths: [], weaknesses: [] },
      },
    },
    mapping: { A: "/runs/one", B: "/runs/two" },
    labels: { A: "first", B: "second" },
    winnerRunDir,
    task: { prompt: "p", expectations: [] },
    costUsd: 0.01,
    model: "m",
    simulated: false,
  };
}

describe("reconcileOrders", () => {
  it("keeps the first verdict when both orders name the same run", () => {
    const first = result("A", "/runs/one", "One is better.");
    const reconciled = reconcileOrders(first, result("B", "/runs/one", "Still one."));
    expect(reconciled).toEqual({ ...first, comparison: { ...first.comparison, position_bias: false } });
  });

  it("calls a verdict that follows the order a tie, and says why", () => {
    const first = result("A", "/runs/one", "A is better.");
    const reconciled = reconcileOrders(first, result("A", "/runs/two", "A is better."));
    expect(reconciled.winnerRunDir).toBeNull();
    expect(reconciled.comparison.winner).toBe("TIE");
    expect(reconciled.comparison.position_bias).toBe(true);
    expect(reconciled.comparison.reasoning).toBe(
      "Position-inconsistent: shown in one order the judge chose A, shown in the other its verdict named the " +
        "other run (or a tie), so the order decided, not the outputs. Recorded as a tie. " +
        "First order's reasoning: A is better.",
    );
  });
});

describe("compareBothOrders", () => {
  it("shows each run first once, whichever label the first showing gave it", async () => {
    const runA = await readRun(ws.withSkill);
    const runB = await readRun(ws.withoutSkill);
    for (const rng of [() => 0, () => 0.9]) {
      const judge = new RecordingJudge(() => comparisonAnswer("A"));
      const compared = await compareBothOrders({ judge, runA, runB, rng });
      expect(new Set(judge.requests.map((r) => tokenUnderA(r.prompt)))).toEqual(
        new Set([TOKENS.with_skill, TOKENS.without_skill]),
      );
      expect(compared.comparison.position_bias).toBe(true);
      expect(compared.costUsd).toBeCloseTo(0.02);
    }
  });

  it("counts the first order's cost into a failure of the second", async () => {
    const runA = await readRun(ws.withSkill);
    const runB = await readRun(ws.withoutSkill);
    const judge = new RecordingJudge((_request, index) => {
      if (index === 0) return comparisonAnswer("A");
      throw new JudgeError("the judge failed: 529 overloaded", true, { costUsd: 0.003 });
    });
    const error = (await compareBothOrders({ judge, runA, runB }).catch((e: unknown) => e)) as JudgeError;
    expect(error).toBeInstanceOf(JudgeError);
    expect(error.message).toBe("the judge failed: 529 overloaded");
    expect(error.retryable).toBe(true);
    expect(error.costUsd).toBeCloseTo(0.013);
  });
});
