import { describe, expect, it } from "vitest";
import type { RunData } from "../../src/bench/model.js";
import { junitXml } from "../../src/ci/index.js";
import type { TriggerResults } from "../../src/contracts/trigger-results.js";
import { elements, parseXml } from "./xml-tree.js";

function run(runNumber: number, partial: Partial<RunData> = {}): RunData {
  return {
    evalId: 1,
    evalName: "eval-1",
    configuration: "with_skill",
    runNumber,
    problems: [],
    grading: {
      expectations: [{ text: "writes card.txt", passed: true, evidence: "card.txt exists" }],
      summary: { passed: 1, failed: 0, total: 1, pass_rate: 1 },
    },
    ...partial,
  };
}

describe("JUnit testcases for runs that did not count", () => {
  const xml = junitXml({
    skillName: "card",
    runs: [
      run(1),
      run(2, { exclusion: { kind: "errored", reason: "timeout", message: "timed out after 300 s" } }),
      run(3, { exclusion: { kind: "ungraded", reason: "ungraded", message: "not graded yet" } }),
      run(4, { exclusion: { kind: "contaminated", reason: "contaminated", message: "saw the skill" } }),
      run(5, { exclusion: { kind: "not_run", reason: "not_run", message: "never run" } }),
    ],
  });
  const suite = elements(parseXml(xml), "testsuite")[0]!;
  const cases = elements(suite, "testcase");

  it("writes an excluded run as <skipped> with its reason, not as a passing testcase", () => {
    expect(cases.map((c) => c.children.map((child) => child.name))).toEqual([
      [],
      ["error"],
      ["skipped"],
      ["skipped"],
      ["skipped"],
    ]);
    expect(cases.slice(2).map((c) => elements(c, "skipped")[0]!.attributes.message)).toEqual([
      "not graded yet",
      "saw the skill",
      "never run",
    ]);
  });

  it("counts an errored run as an error and not a failure", () => {
    expect(suite.attributes).toMatchObject({ tests: "5", failures: "0", errors: "1", skipped: "3" });
  });
});

describe("JUnit text of a failed trigger query", () => {
  it("counts only the scored runs: errored ones are neither triggers nor misses", () => {
    const triggers: TriggerResults = {
      skill_name: "card",
      description: "d",
      threshold: 0.5,
      results: [
        {
          query: "make a card",
          should_trigger: true,
          trigger_rate: 1 / 3,
          triggers: 1,
          runs: 4,
          errors: 1,
          pass: false,
        },
      ],
      summary: {
        total: 1,
        passed: 0,
        failed: 1,
        errors: 0,
        precision: 1,
        recall: 1 / 3,
        f1: 0.5,
        accuracy: 1 / 3,
      },
    };
    const suite = elements(parseXml(junitXml({ skillName: "card", runs: [], triggers })), "testsuite")[0]!;
    const failure = elements(elements(suite, "testcase")[0]!, "failure")[0]!;
    expect(failure.attributes.message).toBe("should trigger: triggered 1 of 3 runs (rate 0.33)");
    expect(failure.text).toBe("query: make a card\nshould trigger, trigger rate 0.33, threshold 0.5");
  });
});
