import { describe, expect, it } from "vitest";
import { buildGraderPrompt, parseGraderAnswer } from "../../src/judge/grader.js";
import { judgeAnswer } from "../../src/sim/index.js";

const expectations = [
  "summary.md lists every column",
  "reports/out.csv has 3 rows",
  "The answer is polite, e.g. thanks",
];

function verdicts(outputs: { path: string; content?: string }[], judge?: Parameters<typeof judgeAnswer>[1]) {
  const { prompt } = buildGraderPrompt({
    prompt: "Summarize data.csv into summary.md and reports/out.csv",
    expectations,
    outputs,
    transcript: "The agent said: wrote summary.md",
  });
  const answer = judgeAnswer(prompt, judge);
  return parseGraderAnswer(answer?.text ?? "", expectations).expectations.map((e) => [e.passed, e.evidence]);
}

describe("the sim judge of a script without a judge section", () => {
  it("fails an expectation naming a file the run did not write, even when the task and transcript name it", () => {
    expect(verdicts([{ path: "summary.md", content: "# cols" }])).toEqual([
      [true, "Simulated verdict (skillgym sim)"],
      [false, "Simulated verdict (skillgym sim): reports/out.csv is not among the run's output files"],
      [true, "Simulated verdict (skillgym sim)"],
    ]);
    expect(verdicts([]).map(([passed]) => passed)).toEqual([false, false, true]);
  });

  it("leaves the decision to the script's judge section when it has one", () => {
    expect(verdicts([], { default: "pass" }).map(([passed]) => passed)).toEqual([true, true, true]);
    expect(
      verdicts([], { default: "fail", verdicts: [{ match: "summary|polite", passed: true }] }).map(
        ([passed]) => passed,
      ),
    ).toEqual([true, false, true]);
  });
});
