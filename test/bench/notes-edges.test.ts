import { describe, expect, it } from "vitest";
import type { RunData } from "../../src/bench/model.js";
import { benchmarkNotes } from "../../src/bench/notes.js";
import { grading } from "./iteration-fixture.js";

function graded(runNumber: number, results: Record<string, boolean>, seconds = 10): RunData {
  return {
    evalId: 1,
    evalName: "Ocean",
    configuration: "with_skill",
    runNumber,
    grading: grading(results),
    timing: { total_duration_seconds: seconds, total_tokens: 1000 },
    outcome: "success",
    problems: [],
  };
}

const notesFor = (runs: RunData[]) =>
  benchmarkNotes({ runs, configurations: ["with_skill"], simulated: false, problems: [] });

describe("benchmark notes at their edges", () => {
  it("calls an assertion flaky that passed in one of two runs", () => {
    expect(notesFor([graded(1, { a: true }), graded(2, { a: false })])).toContain(
      'Eval 1 (Ocean): assertion "a" is flaky: passed 1 of 2 with_skill runs',
    );
  });

  it("does not call a run an outlier at exactly twice the median, only above it", () => {
    const exactly = notesFor([
      graded(1, { a: true }, 10),
      graded(2, { a: true }, 10),
      graded(3, { a: true }, 20),
    ]);
    expect(exactly.join("\n")).not.toContain("more than 2×");
    const above = notesFor([
      graded(1, { a: true }, 10),
      graded(2, { a: true }, 10),
      graded(3, { a: true }, 20.5),
    ]);
    expect(above).toContain(
      "Eval 1 (Ocean) with_skill run 3 took 20.5 s, more than 2× the with_skill median (10.0 s)",
    );
  });
});
