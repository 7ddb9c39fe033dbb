import { describe, expect, it } from "vitest";
import { isFlaky, tallyAssertions } from "../../src/bench/assertions.js";
import type { RunData } from "../../src/bench/model.js";
import { grading } from "./iteration-fixture.js";

function run(
  evalId: number,
  configuration: RunData["configuration"],
  runNumber: number,
  expectations: [string, boolean][],
): RunData {
  const g = grading({});
  return {
    evalId,
    evalName: `e${evalId}`,
    configuration,
    runNumber,
    grading: { ...g, expectations: expectations.map(([text, passed]) => ({ text, passed, evidence: "" })) },
    problems: [],
  };
}

describe("tallyAssertions", () => {
  it("counts passes per eval, assertion and configuration, in the order first listed", () => {
    const runs = [
      run(1, "with_skill", 1, [
        ["b", true],
        ["a", false],
      ]),
      run(1, "with_skill", 2, [
        ["a", true],
        ["b", true],
      ]),
      run(1, "without_skill", 1, [["a", false]]),
      run(2, "with_skill", 1, [["a", true]]),
      {
        ...run(1, "with_skill", 3, [["a", true]]),
        exclusion: { kind: "errored" as const, reason: "x", message: "x" },
      },
    ];
    const tallies = tallyAssertions(runs);
    expect(tallies.map((t) => [t.evalId, t.evalName, t.text, Object.fromEntries(t.byConfiguration)])).toEqual(
      [
        [1, "e1", "b", { with_skill: { passed: 2, runs: 2 } }],
        [1, "e1", "a", { with_skill: { passed: 1, runs: 2 }, without_skill: { passed: 0, runs: 1 } }],
        [2, "e2", "a", { with_skill: { passed: 1, runs: 1 } }],
      ],
    );
  });

  it("counts an assertion listed twice in one grading once for the run", () => {
    const tallies = tallyAssertions([
      run(1, "with_skill", 1, [
        ["a", true],
        ["a", false],
      ]),
    ]);
    expect(tallies.map((t) => t.byConfiguration.get("with_skill"))).toEqual([{ passed: 1, runs: 1 }]);
  });
});

describe("isFlaky", () => {
  it("needs two runs at least, some passing and some failing", () => {
    expect(isFlaky({ passed: 1, runs: 2 })).toBe(true);
    expect(isFlaky({ passed: 2, runs: 3 })).toBe(true);
    expect(isFlaky({ passed: 1, runs: 1 })).toBe(false);
    expect(isFlaky({ passed: 0, runs: 3 })).toBe(false);
    expect(isFlaky({ passed: 3, runs: 3 })).toBe(false);
  });
});
