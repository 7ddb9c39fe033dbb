import { describe, expect, it } from "vitest";
import { expectationsBlock, judgeMarkers } from "../../src/contracts/judge-markers.js";
import { buildGraderPrompt, parseGraderAnswer } from "../../src/judge/grader.js";
import { judgeAnswer } from "../../src/sim/index.js";
import { missingOutputFile } from "../../src/sim/judge-answer.js";

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

  it("passes a named file when the prompt lists no output files to check it against", () => {
    const text = `${judgeMarkers.grader}\n${expectationsBlock(["summary.md lists every column"])}\nno outputs listed`;
    expect(JSON.parse(judgeAnswer(text, undefined)?.text ?? "").expectations[0].passed).toBe(true);
  });
});

describe("missingOutputFile", () => {
  const listed = (outputs: string, after = "") => `## The run's output files\n\n${outputs}${after}`;

  it("looks for the named file only in the list of output files, from its heading to the run metrics", () => {
    expect(missingOutputFile("summary.md lists columns", listed("none"))).toBe("summary.md");
    expect(
      missingOutputFile("summary.md lists columns", `The task names summary.md\n${listed("none")}`),
    ).toBe("summary.md");
    expect(
      missingOutputFile("summary.md lists columns", listed("none", "\n## Run metrics\nsummary.md")),
    ).toBe("summary.md");
    expect(missingOutputFile("summary.md lists columns", listed("### summary.md"))).toBeUndefined();
    expect(missingOutputFile("summary.md lists columns", "The task names summary.md")).toBeUndefined();
  });

  it("matches a named path by its file name", () => {
    expect(missingOutputFile("reports/out.csv has 3 rows", listed("### out.csv"))).toBeUndefined();
    expect(missingOutputFile("reports/out.csv has 3 rows", listed("### overview.md"))).toBe(
      "reports/out.csv",
    );
  });
});
