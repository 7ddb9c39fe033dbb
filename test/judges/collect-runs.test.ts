import { afterEach, describe, expect, it } from "vitest";
import { collectRunsToJudge } from "../../src/judges/collect-runs.js";
import { makeIteration, type TempIteration } from "../bench/iteration-fixture.js";

let iteration: TempIteration | undefined;
afterEach(async () => {
  await iteration?.cleanup();
});

const graded = (expectations: Record<string, unknown>[]) => ({
  expectations,
  summary: { passed: 0, failed: expectations.length, total: expectations.length, pass_rate: 0 },
});

describe("the runs a judge grades again", () => {
  it("take only the expectations a judge graded: marked so, or unmarked and not a check", async () => {
    iteration = await makeIteration({
      evals: [{ id: 1, assertions: ["from the metadata"] }],
      runs: [
        {
          eval: 1,
          configuration: "with_skill",
          run: 1,
          grading: graded([
            { text: "judge said", passed: false, evidence: "", source: "judge" },
            { text: "old judge", passed: true, evidence: "" },
            { text: "a check", passed: true, evidence: "", source: "check", check_type: "file_exists" },
            { text: "old check", passed: true, evidence: "", check_type: "file_exists" },
          ]),
        },
        { eval: 1, configuration: "without_skill", run: 1, grading: null },
        {
          eval: 1,
          configuration: "without_skill",
          run: 2,
          grading: graded([{ text: "only a check", passed: true, evidence: "", source: "check" }]),
        },
      ],
    });
    const { runs, simulated } = await collectRunsToJudge(iteration.dir);
    expect(simulated).toBe(false);
    expect(runs.map((r) => [r.runId, r.task.expectations, r.original.map((x) => x.text)])).toEqual([
      ["eval-1-with_skill-run-1", ["judge said", "old judge"], ["judge said", "old judge"]],
      ["eval-1-without_skill-run-1", ["from the metadata"], []],
    ]);
    expect(runs[0]?.task.prompt).toBe("do task 1");
  });

  it("leave out runs that errored or whose grading cannot be read, and say when any run was simulated", async () => {
    iteration = await makeIteration({
      evals: [{ id: 1, assertions: ["from the metadata"] }],
      runs: [
        { eval: 1, configuration: "with_skill", run: 1, grading: null, outcome: "timeout" },
        { eval: 1, configuration: "with_skill", run: 2, grading: "{ not json" },
        { eval: 1, configuration: "with_skill", run: 3, grading: null, simulated: true },
      ],
    });
    const { runs, simulated } = await collectRunsToJudge(iteration.dir);
    expect(runs.map((r) => r.runId)).toEqual(["eval-1-with_skill-run-3"]);
    expect(simulated).toBe(true);
  });
});
