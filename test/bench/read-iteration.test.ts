import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compareEvalIds, readIteration } from "../../src/bench/read-iteration.js";
import { SkillgymError } from "../../src/errors.js";
import { type FixtureIteration, grading, iterationRecord, writeIteration } from "./iteration-fixture.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function tempRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "skillgym-read-"));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  return root;
}

async function iterationAt(fixture: FixtureIteration): Promise<string> {
  const dir = join(await tempRoot(), "demo-workspace", "iteration-1");
  await writeIteration(dir, fixture);
  return dir;
}

const write = (file: string, value: unknown) =>
  writeFile(file, typeof value === "string" ? value : JSON.stringify(value), "utf8");

describe("compareEvalIds", () => {
  it("orders numbers by value and names naturally", () => {
    expect([10, 2, 1].sort(compareEvalIds)).toEqual([1, 2, 10]);
    expect(["eval-10", "eval-9", "b", "a"].sort(compareEvalIds)).toEqual(["a", "b", "eval-9", "eval-10"]);
    expect([10, "9"].sort(compareEvalIds)).toEqual(["9", 10]);
  });
});

describe("readIteration: the runs of one eval", () => {
  it("notes a missing timing.json and metrics.json on a graded run, and a broken metrics.json", async () => {
    const dir = await iterationAt({
      record: null,
      evals: [{ id: 1 }],
      runs: [
        { eval: 1, configuration: "with_skill", run: 1, results: { a: true }, timing: null },
        { eval: 1, configuration: "with_skill", run: 2, results: { a: true } },
      ],
    });
    await rm(join(dir, "eval-1/with_skill/run-1/outputs/metrics.json"));
    await write(join(dir, "eval-1/with_skill/run-2/outputs/metrics.json"), "{ broken");
    const data = await readIteration(dir);
    expect(data.runs.map((r) => r.problems)).toEqual([
      [
        "eval-1/with_skill/run-1/timing.json is missing: time and tokens unknown",
        "eval-1/with_skill/run-1/outputs/metrics.json is missing: tool calls unknown",
      ],
      [
        expect.stringMatching(
          /^eval-1\/with_skill\/run-2\/outputs\/metrics\.json at line 1.*: tool calls unknown$/,
        ),
      ],
    ]);
    expect(data.runs[0]?.metrics).toBeUndefined();
    expect(data.runs[1]?.metrics).toBeUndefined();
    expect(data.runs[0]?.timing).toBeUndefined();
  });

  it("reads a run's files into its record: grading, timing, metrics, outcome, model, simulation, judge", async () => {
    const dir = await iterationAt({
      record: null,
      evals: [{ id: 1 }],
      runs: [
        {
          eval: 1,
          configuration: "with_skill",
          run: 1,
          grading: { ...grading({ a: true }), judge: { model: "judge-x" } },
          model: "m-1",
          simulated: true,
          toolCalls: 5,
        },
      ],
    });
    const [run] = (await readIteration(dir)).runs;
    expect(run).toMatchObject({
      evalId: 1,
      evalName: "eval-1",
      configuration: "with_skill",
      runNumber: 1,
      outcome: "success",
      model: "m-1",
      simulated: true,
      judgeModel: "judge-x",
      metrics: { total_tool_calls: 5 },
      timing: { total_tokens: 1000 },
      problems: [],
    });
    expect(run?.grading?.summary.pass_rate).toBe(1);
    expect(run?.exclusion).toBeUndefined();
  });

  it("leaves out an errored run with its outcome, whatever its grading, and names a broken timing.json", async () => {
    const dir = await iterationAt({
      record: null,
      evals: [{ id: 1 }],
      runs: [
        { eval: 1, configuration: "with_skill", run: 1, outcome: "crash", results: { a: true } },
        {
          eval: 1,
          configuration: "with_skill",
          run: 2,
          results: { a: true },
          timing: '{"total_tokens": -1}',
        },
        { eval: 1, configuration: "with_skill", run: 3, timing: "not json", results: undefined },
      ],
    });
    const runs = (await readIteration(dir)).runs;
    expect(runs[0]?.exclusion).toEqual({ kind: "errored", reason: "crash", message: "crash" });
    expect(runs[0]?.problems).toEqual([]);
    expect(runs[1]?.exclusion).toMatchObject({
      kind: "unreadable",
      reason: "unreadable",
      message: expect.stringMatching(/^eval-1\/with_skill\/run-2\/timing\.json at total_tokens: /),
    });
    expect(runs[2]?.exclusion).toMatchObject({ kind: "unreadable" });
  });

  it("leaves out a contaminated run, saying what it saw", async () => {
    const dir = await iterationAt({
      record: null,
      evals: [{ id: 1 }],
      runs: [{ eval: 1, configuration: "without_skill", run: 1, results: { a: true } }],
    });
    await write(join(dir, "eval-1/without_skill/run-1/activation.json"), {
      skill: "demo",
      configuration: "without_skill",
      fired: [{ skill: "demo", via: "tool", turn: 1 }],
      skill_fired: true,
      bundled_files: ["SKILL.md"],
      files_opened: [],
      unexpected_skills: [],
      contaminated: true,
      contamination: ["the skill loaded", "it read SKILL.md"],
    });
    const [run] = (await readIteration(dir)).runs;
    expect(run?.exclusion).toEqual({
      kind: "contaminated",
      reason: "contaminated",
      message: "contaminated: the skill loaded; it read SKILL.md",
    });
    expect(run?.activation?.skill_fired).toBe(true);
  });

  it("takes no run-0 folder for a run, and lists planned runs that never ran after the ones found", async () => {
    const dir = await iterationAt({
      record: iterationRecord({
        plan: { evals: [1], configurations: ["with_skill", "without_skill"], runs_per_configuration: 2 },
      }),
      evals: [{ id: 1 }],
      runs: [{ eval: 1, configuration: "without_skill", run: 2, results: { a: true } }],
    });
    await mkdir(join(dir, "eval-1/with_skill/run-0"), { recursive: true });
    const data = await readIteration(dir);
    expect(data.runs.map((r) => [r.configuration, r.runNumber, r.exclusion?.kind ?? "ok"])).toEqual([
      ["with_skill", 1, "not_run"],
      ["with_skill", 2, "not_run"],
      ["without_skill", 1, "not_run"],
      ["without_skill", 2, "ok"],
    ]);
    expect(data.runs[0]?.exclusion?.message).toBe(
      "not run: the iteration planned it but eval-1/with_skill/run-1/ does not exist (interrupted?)",
    );
    expect(data.configurations).toEqual(["with_skill", "without_skill"]);
  });

  it("does not take a shard's absent runs for runs that never ran", async () => {
    const dir = await iterationAt({
      record: iterationRecord({
        plan: { evals: [1, 2], configurations: ["with_skill"], runs_per_configuration: 2 },
        shard: { index: 1, count: 2, plan_hash: "h" },
      }),
      evals: [{ id: 1 }],
      runs: [{ eval: 1, configuration: "with_skill", run: 1, results: { a: true } }],
    });
    const data = await readIteration(dir);
    expect(data.runs.map((r) => [r.evalId, r.runNumber])).toEqual([[1, 1]]);
    expect(data.evals.map((e) => [e.id, e.name, e.folder])).toEqual([
      [1, "eval-1", "eval-1"],
      [2, "eval-2", "eval-2"],
    ]);
  });
});

describe("readIteration: why a run is left out", () => {
  it("names each reason exactly: not run, unreadable grading, not graded; a left-out run has no notes", async () => {
    const dir = await iterationAt({
      record: iterationRecord({
        plan: { evals: [1], configurations: ["with_skill"], runs_per_configuration: 3 },
      }),
      evals: [{ id: 1 }],
      runs: [
        { eval: 1, configuration: "with_skill", run: 1, grading: "{ broken" },
        { eval: 1, configuration: "with_skill", run: 2, results: undefined, timing: null },
      ],
    });
    await rm(join(dir, "eval-1/with_skill/run-2/outputs/metrics.json"));
    const runs = (await readIteration(dir)).runs;
    expect(runs.map((r) => [r.exclusion?.kind, r.exclusion?.reason, r.problems])).toEqual([
      ["unreadable", "unreadable", []],
      ["ungraded", "not graded", []],
      ["not_run", "not run", []],
    ]);
    expect(runs[0]?.exclusion?.message).toMatch(/^eval-1\/with_skill\/run-1\/grading\.json at line 1/);
    expect(runs[1]?.exclusion?.message).toBe("not graded yet: grading.json is missing");
  });

  it("takes the judge's model only when it is a string", async () => {
    const dir = await iterationAt({
      record: null,
      evals: [{ id: 1 }],
      runs: [
        { eval: 1, configuration: "with_skill", run: 1, grading: { ...grading({ a: true }), judge: null } },
        {
          eval: 1,
          configuration: "with_skill",
          run: 2,
          grading: { ...grading({ a: true }), judge: { model: 42 } },
        },
        {
          eval: 1,
          configuration: "with_skill",
          run: 3,
          grading: { ...grading({ a: true }), judge_model: "named", judge: { model: "other" } },
        },
      ],
    });
    const runs = (await readIteration(dir)).runs;
    expect(runs.map((r) => r.judgeModel)).toEqual([undefined, undefined, "named"]);
  });
});

describe("readIteration: the iteration as a whole", () => {
  it("orders evals as the plan lists them, then the rest naturally; runs by eval, configuration, number", async () => {
    const dir = await iterationAt({
      record: iterationRecord({
        plan: { evals: [10, 2], configurations: ["with_skill", "old_skill"], runs_per_configuration: 1 },
      }),
      evals: [{ id: 2 }, { id: 10 }, { id: "x-9" }, { id: "x-10" }],
      runs: [
        { eval: 2, configuration: "old_skill", run: 1, results: { a: true } },
        { eval: 2, configuration: "with_skill", run: 1, results: { a: true } },
        { eval: 10, configuration: "with_skill", run: 1, results: { a: true } },
        { eval: 10, configuration: "old_skill", run: 1, results: { a: true } },
        { eval: "x-10", configuration: "with_skill", run: 1, results: { a: true } },
        { eval: "x-9", configuration: "with_skill", run: 1, results: { a: true } },
      ],
    });
    const data = await readIteration(dir);
    expect(data.evals.map((e) => e.id)).toEqual([10, 2, "x-9", "x-10"]);
    expect(data.runs.map((r) => `${r.evalId}/${r.configuration}`)).toEqual([
      "10/with_skill",
      "10/old_skill",
      "2/with_skill",
      "2/old_skill",
      // The plan's configurations and runs hold for every eval folder: these old_skill runs never ran.
      "x-9/with_skill",
      "x-9/old_skill",
      "x-10/with_skill",
      "x-10/old_skill",
    ]);
    expect(data.configurations).toEqual(["with_skill", "old_skill"]);
    expect(data.record?.skill_name).toBe("demo");
    expect(data.problems).toEqual([]);
  });

  it("orders runs of one configuration by number, and sorts the problems", async () => {
    const dir = await iterationAt({
      record: null,
      evals: [{ id: 1 }, { id: 2 }],
      runs: [3, 1, 2].map((run) => ({
        eval: 1,
        configuration: "with_skill" as const,
        run,
        results: { a: true },
      })),
    });
    await rm(join(dir, "eval-2", "eval_metadata.json"));
    await write(join(dir, "eval-1", "eval_metadata.json"), "{");
    await mkdir(join(dir, "eval-1", "zz_other"));
    const data = await readIteration(dir);
    expect(data.runs.map((r) => r.runNumber)).toEqual([1, 2, 3]);
    expect(data.problems).toEqual([
      expect.stringMatching(
        /^eval-1\/eval_metadata\.json at line 1.*; the eval id comes from the folder name$/,
      ),
      "eval-1/zz_other/ is not a configuration skillgym knows (with_skill, without_skill, old_skill); left out",
      "eval-2/eval_metadata.json is missing; the eval id comes from the folder name",
    ]);
    expect(data.evals).toEqual([
      { id: 1, name: "eval-1", folder: "eval-1" },
      { id: 2, name: "eval-2", folder: "eval-2" },
    ]);
  });

  it("reads the ambiguous expectations of judges.json beside the runs", async () => {
    const dir = await iterationAt({ record: null, evals: [{ id: 1 }], runs: [] });
    const ambiguous = [{ eval_id: 1, text: "Is short", reasons: ["judges split"] }];
    await write(join(dir, "judges.json"), {
      created_at: "2026-01-01T00:00:00Z",
      iteration_dir: dir,
      repeat: 1,
      runs: 0,
      simulated: false,
      judges: [],
      pairs: [],
      humans: [],
      human_marks: 0,
      self_consistency: [],
      ambiguous,
    });
    expect((await readIteration(dir)).ambiguous).toEqual(ambiguous);
  });

  it("notes a broken iteration.json", async () => {
    const dir = await iterationAt({ record: '{"skill_name": 1}', evals: [{ id: 1 }], runs: [] });
    const data = await readIteration(dir);
    expect(data.record).toBeUndefined();
    expect(data.problems).toEqual([
      expect.stringMatching(/^iteration\.json at .*; the plan was read from the folders instead$/),
    ]);
  });

  it("refuses a folder with neither iteration.json nor eval folders, with what was wrong with it", async () => {
    const root = await tempRoot();
    await write(join(root, "iteration.json"), "{");
    const error = await readIteration(root).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillgymError);
    expect((error as SkillgymError).message).toMatch(
      new RegExp(
        `^${root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is not an iteration folder: it has no readable iteration\\.json and no eval-<id>/ folders \\(iteration\\.json at line 1.*; the plan was read from the folders instead\\)$`,
      ),
    );
  });

  it("refuses an empty folder, a missing one, a file and one it cannot read, saying which and what to pass", async () => {
    const root = await tempRoot();
    const file = join(root, "file");
    const loop = join(root, "loop");
    await write(file, "x");
    await symlink(loop, loop);
    const refusal = async (dir: string) => {
      const error = (await readIteration(dir).catch((e: unknown) => e)) as SkillgymError;
      expect(error).toBeInstanceOf(SkillgymError);
      return [error.message, error.hint, error.file];
    };
    const pass = "pass an iteration folder written by `skillgym eval`, such as <skill>-workspace/iteration-1";
    expect(await refusal(root)).toEqual([
      `${root} is not an iteration folder: it has no readable iteration.json and no eval-<id>/ folders`,
      "pass a folder written by `skillgym eval`, such as <skill>-workspace/iteration-1",
      root,
    ]);
    expect(await refusal(join(root, "missing"))).toEqual([
      `${join(root, "missing")} does not exist`,
      pass,
      join(root, "missing"),
    ]);
    expect(await refusal(file)).toEqual([`${file} is not a folder`, pass, file]);
    expect(await refusal(loop)).toEqual([`${loop} cannot be read`, pass, loop]);
  });

  it("sorts the notes, whatever order they were found in", async () => {
    const dir = await iterationAt({ record: '{"skill_name": 1}', evals: [{ id: 1 }], runs: [] });
    await rm(join(dir, "eval-1", "eval_metadata.json"));
    expect((await readIteration(dir)).problems).toEqual([
      "eval-1/eval_metadata.json is missing; the eval id comes from the folder name",
      expect.stringMatching(/^iteration\.json at /),
    ]);
  });

  it("points an iteration of several agents to each agent's folder", async () => {
    const root = await tempRoot();
    await write(join(root, "iteration.json"), {
      skill_name: "demo",
      skill_path: "/skills/demo",
      skill_hash: "h",
      status: "complete",
      started_at: "2026-01-01T00:00:00Z",
      agents: ["claude-code", "codex"],
      request: {
        evals: [1],
        runs_per_configuration: 1,
        baseline: "without_skill",
        trigger_queries: 0,
        trigger_runs: 1,
      },
    });
    const error = (await readIteration(root).catch((e: unknown) => e)) as SkillgymError;
    expect(error.code).toBe("BAD_INPUT");
    expect(error.message).toBe(
      `${root} ran several agents (claude-code, codex); each has its own iteration folder: ${join(root, "claude-code")}, ${join(root, "codex")}`,
    );
    expect(error.hint).toBe(`pass one of them, such as ${join(root, "claude-code")}`);
  });
});
