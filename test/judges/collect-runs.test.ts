import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { collectRunsToJudge } from "../../src/judges/collect-runs.js";
import { iterationRecord, makeIteration, type TempIteration } from "../bench/iteration-fixture.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

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

describe("the expected output a judge is given", () => {
  const suite = JSON.stringify({
    skill_name: "demo",
    evals: [
      { id: 1, prompt: "do task 1", expected_output: "A card for Ada", expectations: ["greets Ada"] },
      { id: 2, prompt: "do task 2", expectations: ["greets Bo"] },
    ],
  });
  let sources: Awaited<ReturnType<typeof tempDir>> | undefined;
  afterEach(async () => {
    await sources?.cleanup();
  });

  async function expectedOf(record: (dir: string) => Record<string, unknown>, files: Record<string, string>) {
    sources = await tempDir();
    await writeTree(sources.dir, {
      "demo/SKILL.md": skillMd("demo", "Writes cards.", "Write one."),
      ...files,
    });
    iteration = await makeIteration({
      record: iterationRecord({ skill_path: join(sources.dir, "demo"), ...record(sources.dir) }),
      evals: [
        { id: 1, assertions: ["greets Ada"] },
        { id: 2, assertions: ["greets Bo"] },
      ],
      runs: [1, 2].map((id) => ({ eval: id, configuration: "with_skill" as const, run: 1, grading: null })),
    });
    const { runs } = await collectRunsToJudge(iteration.dir);
    return runs.map((r) => [r.runId, r.task.expected_output ?? null]);
  }

  const expected = [
    ["eval-1-with_skill-run-1", "A card for Ada"],
    ["eval-2-with_skill-run-1", null],
  ];

  it("comes from the evals file the iteration ran", async () => {
    expect(
      await expectedOf((dir) => ({ evals_path: join(dir, "suite.json") }), { "suite.json": suite }),
    ).toEqual(expected);
  });

  it("comes from the suite in the iteration's project", async () => {
    expect(
      await expectedOf((dir) => ({ project_root: join(dir, "project") }), {
        "project/evals/demo/evals.json": suite,
      }),
    ).toEqual(expected);
  });
});

describe("the runs a judge grades", () => {
  it("leave out an ungraded run that never wrote how it ended", async () => {
    iteration = await makeIteration({
      evals: [{ id: 1, assertions: ["from the metadata"] }],
      runs: [
        { eval: 1, configuration: "with_skill", run: 1, grading: null, timing: { total_tokens: 10 } },
        { eval: 1, configuration: "with_skill", run: 2, grading: null },
      ],
    });
    const { runs } = await collectRunsToJudge(iteration.dir);
    expect(runs.map((r) => r.runId)).toEqual(["eval-1-with_skill-run-2"]);
  });
});
