import { describe, expect, it } from "vitest";
import { judgesText } from "../../../src/cli/reporters/judges.js";
import type { Disagreement, JudgeIdentity, JudgesReport } from "../../../src/contracts/judges.js";

const judge = (id: string, errors: JudgeIdentity["errors"] = []): JudgeIdentity => ({
  id,
  backend: id.split(":")[0] ?? id,
  cost_usd: 0,
  verdicts: 8,
  errors,
});

const disagreement: Disagreement = {
  run_id: "eval-1/with_skill/run-1",
  eval_id: 1,
  text: "has a table",
  a: { passed: true, evidence: "a table" },
  b: { passed: false, evidence: "a list" },
};

const report = (over: Partial<JudgesReport> = {}): JudgesReport => ({
  created_at: "2026-11-27T10:00:00Z",
  iteration_dir: "/ws/iteration-1",
  repeat: 1,
  runs: 4,
  simulated: false,
  judges: [judge("claude:haiku"), judge("gemini")],
  pairs: [
    {
      a: "claude:haiku",
      b: "gemini",
      n: 8,
      percent_agreement: 0.875,
      kappa: 0.714,
      kappa_ci: { low: 0.305, high: 1, confidence: 0.95 },
      disagreements: [disagreement],
    },
  ],
  humans: [],
  human_marks: 0,
  self_consistency: [],
  ambiguous: [],
  ...over,
});

const path = "/ws/iteration-1/judges.json";

describe("judgesText", () => {
  it("prints the pairs' agreement and κ with its interval, that no human marked a grade, and the file", () => {
    expect(judgesText(report(), path)).toBe(
      [
        "4 runs re-graded by claude:haiku, gemini",
        "  claude:haiku vs gemini: 87.5% agree, κ 0.71 (95% CI 0.30 to 1.00), over 8 verdicts; 1 disagreements",
        "  no grade marked right or wrong in feedback.json: no human agreement",
        "judges.json: /ws/iteration-1/judges.json",
        "",
      ].join("\n"),
    );
  });

  it("prints repeats, a simulated run, humans, flips, ambiguous expectations, position bias, failures and the gate", () => {
    const text = judgesText(
      report({
        repeat: 3,
        simulated: true,
        judges: [
          judge("claude:haiku", [
            { run_id: "eval-2/with_skill/run-1", error: "timed out" },
            { run_id: "eval-2/with_skill/run-2", error: "rate limited" },
          ]),
          judge("gemini"),
        ],
        pairs: [
          {
            a: "claude:haiku",
            b: "gemini",
            n: 0,
            percent_agreement: null,
            kappa: null,
            kappa_ci: null,
            disagreements: [],
          },
          {
            a: "claude:haiku",
            b: "codex",
            n: 8,
            percent_agreement: 1,
            kappa: -0.25,
            kappa_ci: null,
            disagreements: [],
          },
        ],
        humans: [
          {
            judge: "claude:haiku",
            n: 5,
            percent_agreement: 0.8,
            kappa: 0.5,
            kappa_ci: { low: -0.2, high: 0.9, confidence: 0.95 },
            disagreements: [],
          },
        ],
        human_marks: 5,
        self_consistency: [
          { judge: "claude:haiku", n: 8, flips: 1, flip_rate: 0.125, flipped: [] },
          { judge: "gemini", n: 0, flips: 0, flip_rate: null, flipped: [] },
        ],
        ambiguous: [
          {
            eval_id: 2,
            text: "is short",
            reasons: ["judges disagree on 2 of 4 runs", "gemini flipped once"],
            suggested_rewording: "has at most 100 words",
          },
          { eval_id: "chart", text: "looks good", reasons: ["judges disagree on 3 of 4 runs"] },
        ],
        position_bias: { comparisons: 4, biased: 1, rate: 0.25 },
        gate: { min_judge_agreement: 0.8, passed: false, message: "claude:haiku vs gemini agree n/a < 80%" },
      }),
      path,
    );
    expect(text.split("\n")).toEqual([
      "4 runs re-graded by claude:haiku, gemini, 3 times each (simulated)",
      "  claude:haiku vs gemini: n/a agree, κ n/a, over 0 verdicts; 0 disagreements",
      "  claude:haiku vs codex: 100.0% agree, κ -0.25, over 8 verdicts; 0 disagreements",
      "  claude:haiku vs reviewers: 80.0% agree, κ 0.50 (95% CI -0.20 to 0.90), over 5 marked grades",
      "  claude:haiku asked again: 1 of 8 verdicts flipped (12.5%)",
      "  gemini asked again: 0 of 0 verdicts flipped (n/a)",
      '  ambiguous: "is short" (eval 2): judges disagree on 2 of 4 runs; gemini flipped once',
      '    consider: "has at most 100 words"',
      '  ambiguous: "looks good" (eval chart): judges disagree on 3 of 4 runs',
      "  blind comparisons in both orders: 1 of 4 changed their winner with the order (25.0%), each then a tie",
      "  claude:haiku failed on 2 runs, e.g. timed out",
      "FAIL min-judge-agreement: claude:haiku vs gemini agree n/a < 80%",
      "judges.json: /ws/iteration-1/judges.json",
      "",
    ]);
  });

  it("says a passed gate, and nothing of repeats when each judge graded once", () => {
    const text = judgesText(
      report({ gate: { min_judge_agreement: 0.8, passed: true, message: "every pair agrees 80% or more" } }),
      path,
    );
    expect(text.split("\n")[0]).toBe("4 runs re-graded by claude:haiku, gemini");
    expect(text.split("\n").at(-3)).toBe("PASS min-judge-agreement: every pair agrees 80% or more");
  });
});
