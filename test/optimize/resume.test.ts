import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OptimizeIteration, OptimizeResults } from "../../src/contracts/optimize-results.js";
import { SkillgymError } from "../../src/errors.js";
import type { OptimizeOptions } from "../../src/optimize/plan.js";
import { prepareOptimize } from "../../src/optimize/plan.js";
import { resumedResults } from "../../src/optimize/results-state.js";
import { loadCheckpoint, resumedOptions, resumeMismatches } from "../../src/optimize/resume.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

const side = (passed: number) => ({
  score: passed,
  summary: {
    total: 1,
    passed,
    failed: 1 - passed,
    errors: 0,
    precision: null,
    recall: passed,
    f1: null,
    accuracy: passed,
  },
  results: [
    {
      query: "q",
      should_trigger: true,
      trigger_rate: passed,
      triggers: passed,
      runs: 1,
      errors: 0,
      pass: passed === 1,
    },
  ],
});
const iteration = (n: number, status: OptimizeIteration["status"], cost: number): OptimizeIteration => ({
  iteration: n,
  description: `d${n}`,
  status,
  train: status === "interrupted" ? null : side(n === 0 ? 0 : 1),
  test: status === "interrupted" ? null : side(n === 0 ? 0 : 1),
  trigger_runs: 2,
  cost_usd: cost,
});

function stored(status: OptimizeResults["status"], iterations: OptimizeIteration[]): OptimizeResults {
  return {
    skill_name: "scribe",
    skill_path: "/s/scribe",
    status,
    started_at: "2025-01-31T14:25:02.000Z",
    finished_at: "2025-01-31T14:30:00.000Z",
    simulated: false,
    settings: {
      max_iterations: 3,
      holdout: 0.3,
      runs_per_query: 1,
      threshold: 0.5,
      seed: 7,
      patience: 2,
      model: "claude-sonnet-4-5",
      improver_backend: "anthropic",
      improver_model: "claude-sonnet-4-5",
      max_cost_usd: 2,
    },
    score_metric: "accuracy",
    split: { train: [{ query: "q", should_trigger: true }], test: [{ query: "q", should_trigger: true }] },
    estimate: { trigger_runs: 8, improver_calls: 3, cost_usd: 0.4 },
    original_description: "d0",
    best_description: "d0",
    best_iteration: 0,
    final_description: "d2",
    exit_reason: "cancelled",
    iterations,
    test_gain: null,
    cost_usd: iterations.reduce((s, it) => s + it.cost_usd, 0),
  };
}

describe("resuming an optimization", () => {
  it("keeps the finished iterations, drops the one cut short and counts the cost of what it keeps", () => {
    const before = stored("interrupted", [
      iteration(0, "complete", 0.1),
      iteration(1, "complete", 0.2),
      iteration(2, "interrupted", 0.05),
    ]);
    const after = resumedResults(before, new Date("2025-02-01T00:00:00.000Z"));
    expect(after.iterations.map((it) => it.iteration)).toEqual([0, 1]);
    expect(after).toMatchObject({
      status: "running",
      exit_reason: "running",
      best_iteration: 1,
      final_description: "d1",
    });
    expect(after.cost_usd).toBeCloseTo(0.3, 10);
    expect(after.resumed_at).toEqual(["2025-02-01T00:00:00.000Z"]);
    expect(after).not.toHaveProperty("finished_at");
  });

  it("takes the settings the user did not give again from results.json", () => {
    const checkpoint = {
      dir: "/w/optimize-1",
      file: "/w/optimize-1/results.json",
      results: stored("running", []),
    };
    const given: OptimizeOptions = {
      skillPath: "/s/scribe",
      maxIterations: 5,
      holdout: 0.4,
      runs: 3,
      threshold: 0.5,
      seed: 42,
      concurrency: 8,
      timeoutSeconds: 60,
      maxCostUsd: 9,
      createAgent: () => Promise.reject(new Error("unused")),
      createImprover: () => Promise.reject(new Error("unused")),
    };
    const merged = resumedOptions({ ...given, explicit: ["runs", "maxIterations"] }, checkpoint);
    expect(merged).toMatchObject({
      runs: 3,
      maxIterations: 5,
      holdout: 0.3,
      seed: 7,
      model: "claude-sonnet-4-5",
      maxCostUsd: 2,
      patience: 2,
      workspace: "/w",
    });
    // Without a list of given options (library use), every option stands as passed.
    expect(resumedOptions(given, checkpoint)).toMatchObject({
      runs: 3,
      holdout: 0.4,
      seed: 42,
      maxCostUsd: 9,
    });
  });

  it("takes an option named as given but left undefined from results.json, and drops what results.json lacks", () => {
    const results = stored("running", []);
    const { model: _model, max_cost_usd: _budget, ...settings } = results.settings;
    const options: OptimizeOptions = {
      skillPath: "/s/scribe",
      maxIterations: 5,
      holdout: 0.4,
      runs: 3,
      threshold: 0.5,
      seed: 42,
      model: "claude-haiku-4-5",
      maxCostUsd: 9,
      concurrency: 8,
      timeoutSeconds: 60,
      createAgent: () => Promise.reject(new Error("unused")),
      createImprover: () => Promise.reject(new Error("unused")),
    };
    const checkpoint = { dir: "/w/optimize-1", file: "/w/optimize-1/results.json", results };
    expect(resumedOptions({ ...options, model: undefined, explicit: ["model"] }, checkpoint).model).toBe(
      "claude-sonnet-4-5",
    );
    const bare = {
      dir: "/w/optimize-1",
      file: "/w/optimize-1/results.json",
      results: { ...results, settings },
    };
    const merged = resumedOptions({ ...options, explicit: [] }, bare);
    expect(merged.model).toBeUndefined();
    expect(merged.maxCostUsd).toBeUndefined();
    expect(merged).toMatchObject({ maxIterations: 3, holdout: 0.3, runs: 1, seed: 7, patience: 2 });
  });
});

describe("reading the results.json to resume", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(() => cleanup());

  const refusal = async (folder: string) => {
    const error = await loadCheckpoint(folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillgymError);
    return (error as SkillgymError).message;
  };

  it("refuses a missing, broken, invalid or finished one, naming the file", async () => {
    const file = (name: string) => join(dir, name, "results.json");
    await writeTree(dir, {
      "broken/results.json": "{ not json",
      "invalid/results.json": JSON.stringify({ ...stored("running", []), iterations: "none" }),
      "done/results.json": JSON.stringify({ ...stored("complete", []), exit_reason: "max_iterations" }),
      "cut/results.json": JSON.stringify(stored("running", [iteration(0, "complete", 0)])),
    });
    expect(await refusal(join(dir, "missing"))).toBe(`--resume: ${file("missing")} does not exist`);
    expect(await refusal(join(dir, "broken"))).toContain(`${file("broken")}: not valid JSON`);
    expect(await refusal(join(dir, "invalid"))).toMatch(new RegExp(`^${file("invalid")}: iterations: `));
    expect(await refusal(join(dir, "done"))).toBe(
      `--resume: ${file("done")} is already complete (max_iterations); nothing to resume`,
    );
    expect((await loadCheckpoint(file("cut"))).dir).toBe(join(dir, "cut"));
  });

  it("says what to do about each refusal, and which file it read", async () => {
    const file = (name: string) => join(dir, name, "results.json");
    await writeTree(dir, {
      "broken/results.json": "{ not json",
      "list/results.json": "[]",
      "nested/results.json": JSON.stringify(
        stored("running", [{ ...iteration(0, "complete", 0), status: "lost" as "complete" }]),
      ),
      "done/results.json": JSON.stringify({ ...stored("complete", []), exit_reason: "max_iterations" }),
    });
    const refused = async (name: string) =>
      (await loadCheckpoint(join(dir, name)).catch((e: unknown) => e)) as SkillgymError;
    expect(await refused("missing")).toMatchObject({
      file: file("missing"),
      hint: "pass the optimize-<timestamp> folder of the optimization to continue",
    });
    expect(await refused("broken")).toMatchObject({ code: "BAD_INPUT", file: file("broken") });
    expect(await refused("list")).toMatchObject({
      message: `${file("list")}: (root): Invalid input: expected object, received array`,
      file: file("list"),
      hint: "--resume continues an optimization from the results.json skillgym optimize wrote",
    });
    expect((await refused("nested")).message).toMatch(
      new RegExp(`^${file("nested")}: iterations\\.0\\.status: `),
    );
    expect(await refused("done")).toMatchObject({
      file: file("done"),
      hint: "start a new optimization without --resume",
    });
  });
});

describe("checking that a resume has the inputs the optimization started with", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(() => cleanup());

  it("names every difference that would change the evaluations", async () => {
    const queries = ["a", "b", "c", "d"].map((q, i) => ({ query: `query ${q}`, should_trigger: i < 2 }));
    await writeTree(dir, {
      "scribe/SKILL.md": skillMd("scribe", "d0", "Body."),
      "scribe/evals/triggers.json": JSON.stringify(queries),
    });
    const options: OptimizeOptions = {
      skillPath: join(dir, "scribe"),
      maxIterations: 3,
      holdout: 0.3,
      runs: 1,
      threshold: 0.5,
      seed: 7,
      model: "claude-sonnet-4-5",
      concurrency: 1,
      timeoutSeconds: 60,
      createAgent: () => Promise.reject(new Error("unused")),
      createImprover: () => Promise.reject(new Error("unused")),
    };
    const prepared = await prepareOptimize(options);
    const results = {
      ...stored("running", []),
      split: {
        train: prepared.split.train.map((i) => queries[i]!),
        test: prepared.split.test.map((i) => queries[i]!),
      },
    };
    const now = {
      prepared,
      options,
      simulated: false,
      improver: { backend: "anthropic", model: "claude-sonnet-4-5" },
    };
    expect(resumeMismatches(results, now)).toEqual([]);

    await writeTree(dir, {
      "scribe/SKILL.md": skillMd("scribe", "another description", "Body."),
      "scribe/evals/triggers.json": JSON.stringify([...queries, { query: "query e", should_trigger: false }]),
    });
    const changed = await prepareOptimize(options);
    expect(
      resumeMismatches(results, {
        ...now,
        prepared: changed,
        options: { ...options, threshold: 0.7 },
        improver: { backend: "sim", model: "skillgym-sim" },
      }),
    ).toEqual([
      `the description in ${join(dir, "scribe", "SKILL.md")} is not the one the optimization started from`,
      `the queries of ${join(dir, "scribe", "evals", "triggers.json")} or their train/test split differ from results.json`,
      "--threshold: 0.5 in results.json, 0.7 now",
      '--improver: "anthropic" in results.json, "sim" now',
      '--improver-model: "claude-sonnet-4-5" in results.json, "skillgym-sim" now',
    ]);

    expect(
      resumeMismatches(
        { ...results, skill_name: "scribe-old", simulated: true },
        { ...now, options: { ...options, holdout: 0.4, model: "claude-haiku-4-5" } },
      ),
    ).toEqual([
      'skill name: "scribe-old" in results.json, "scribe" now',
      "--holdout: 0.3 in results.json, 0.4 now",
      '--model: "claude-sonnet-4-5" in results.json, "claude-haiku-4-5" now',
      "--simulate: true in results.json, false now",
    ]);

    // Other trigger conditions (a project the runs start in) change every evaluation: refused too.
    await writeTree(dir, { "project/package.json": "{}\n" });
    const inProject = await prepareOptimize({ ...options, project: join(dir, "project") });
    expect(resumeMismatches({ ...results, split: results.split }, { ...now, prepared: inProject })).toContain(
      `the conditions: (not set) in results.json, {"project_root":"${join(dir, "project")}"} now`,
    );
  });
});
