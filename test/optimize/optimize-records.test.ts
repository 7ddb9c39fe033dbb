import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OptimizeIteration, OptimizeResults } from "../../src/contracts/optimize-results.js";
import { subsetScore, testGain } from "../../src/optimize/index.js";
import { createOptimizeDir } from "../../src/optimize/output.js";
import { resumedResults, withIterations } from "../../src/optimize/results-state.js";
import { earlierProposal, loadCheckpoint } from "../../src/optimize/resume.js";
import { replayDecided } from "../../src/optimize/screen.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

// The optimizer's records on disk and in results.json: its folder, the state it keeps up to date, and what a resume
// reads back.
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const NOW = new Date("2025-01-31T14:25:02.123Z");

describe("createOptimizeDir", () => {
  it("gives a second and third optimization started in the same second a suffix", async () => {
    const ws = join(dir, "a", "ws");
    expect(await createOptimizeDir(ws, NOW)).toBe(join(ws, "optimize-20250131-142502"));
    expect(await createOptimizeDir(ws, NOW)).toBe(join(ws, "optimize-20250131-142502-2"));
    expect(await createOptimizeDir(ws, NOW)).toBe(join(ws, "optimize-20250131-142502-3"));
    expect((await readdir(ws)).sort()).toEqual([
      "optimize-20250131-142502",
      "optimize-20250131-142502-2",
      "optimize-20250131-142502-3",
    ]);
  });

  it("throws, and does not try another name, when the folder cannot be made for another reason than a taken name", async () => {
    // A workspace whose path leaves no room for the folder's name under the system's limit of 4,096 bytes.
    let ws = dir;
    while (ws.length < 4085) ws = join(ws, "w".repeat(Math.min(200, 4085 - ws.length - 1)));
    await expect(createOptimizeDir(ws, NOW)).rejects.toMatchObject({ code: "ENAMETOOLONG" });
  });

  it("throws when the workspace cannot be made", async () => {
    // A file where a folder of the workspace's path would go.
    const ws = join(dir, "ws");
    await mkdir(ws);
    await writeFile(join(ws, "optimize-20250131-142502"), "");
    await expect(createOptimizeDir(join(ws, "optimize-20250131-142502", "inner"), NOW)).rejects.toMatchObject(
      {
        code: "ENOTDIR",
      },
    );
  });
});

const results = (iterations: OptimizeIteration[]): OptimizeResults =>
  ({
    skill_name: "scribe",
    skill_path: "/s/scribe",
    status: "interrupted",
    started_at: "2025-01-31T14:25:02.000Z",
    finished_at: "2025-01-31T14:30:00.000Z",
    error: "disk full",
    simulated: true,
    settings: {},
    original_description: "Original.",
    best_description: "stale",
    best_iteration: 7,
    final_description: "stale",
    exit_reason: "error",
    iterations,
    test_gain: null,
    cost_usd: 9,
  }) as unknown as OptimizeResults;

const interrupted = (n: number): OptimizeIteration => ({
  iteration: n,
  description: `d${n}`,
  status: "interrupted",
  train: null,
  test: null,
  trigger_runs: 3,
  cost_usd: 0.5,
});

describe("the state in results.json", () => {
  it("falls back to the original description when no iteration is left", () => {
    expect(withIterations(results([interrupted(0)]), [])).toMatchObject({
      iterations: [],
      cost_usd: 0,
      best_iteration: null,
      best_description: "Original.",
      final_description: "Original.",
      test_gain: null,
    });
  });

  it("names the last iteration's description final even when it has no test score", () => {
    const state = withIterations(results([]), [interrupted(0)]);
    expect(state).toMatchObject({
      best_iteration: null,
      best_description: "Original.",
      final_description: "d0",
      cost_usd: 0.5,
      test_gain: null,
    });
  });

  it("measures the test gain of the best iteration over the original, iteration 0", () => {
    const testSide = (passed: boolean) =>
      subsetScore(
        Array.from({ length: 10 }, (_, i) => ({
          query: `q${i}`,
          should_trigger: true,
          trigger_rate: passed ? 1 : 0,
          triggers: passed ? 3 : 0,
          runs: 3,
          errors: 0,
          pass: passed,
        })),
        Array.from({ length: 10 }, (_, i) => i),
      );
    const evaluated = (n: number, passed: boolean): OptimizeIteration => ({
      ...interrupted(n),
      status: "complete",
      train: testSide(passed),
      test: testSide(passed),
    });
    const original = evaluated(0, false);
    const best = evaluated(1, true);
    const state = withIterations(results([]), [original, best]);
    expect(state.best_iteration).toBe(1);
    expect(state.test_gain).toEqual(testGain(original.test!, best.test!));
    expect(state.test_gain?.gain).toBe(1);
  });

  it("resumes running again, dropping the end, the error and the evaluation cut short", () => {
    const resumed = resumedResults(results([interrupted(0)]), NOW);
    expect(resumed).toMatchObject({
      status: "running",
      exit_reason: "running",
      resumed_at: ["2025-01-31T14:25:02.123Z"],
      iterations: [],
      cost_usd: 0,
    });
    expect(resumed).not.toHaveProperty("finished_at");
    expect(resumed).not.toHaveProperty("error");
    const again = resumedResults(resumed, new Date("2025-02-01T00:00:00.000Z"));
    expect(again.resumed_at).toEqual(["2025-01-31T14:25:02.123Z", "2025-02-01T00:00:00.000Z"]);
  });
});

describe("what a resume reads back", () => {
  it("refuses a results.json that is not an object, naming its root", async () => {
    await writeTree(dir, { "run/results.json": "[]" });
    await expect(loadCheckpoint(join(dir, "run"))).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: expect.stringMatching(new RegExp(`^${join(dir, "run", "results.json")}: \\(root\\): `)),
      hint: "--resume continues an optimization from the results.json skillgym optimize wrote",
    });
  });

  it("takes back a proposal that failed, without a description", async () => {
    const proposal = {
      model: "m",
      asks: 2,
      costUsd: 0.5,
      problems: ["it was empty", "it was empty"],
      error: "no usable description",
      system: "s",
      exchanges: [],
    };
    await writeTree(dir, { "iteration-1/improver.json": JSON.stringify(proposal) });
    const earlier = await earlierProposal(join(dir, "iteration-1"));
    expect(earlier).toEqual(proposal);
    expect(earlier).not.toHaveProperty("description");
  });

  it("takes back a usable proposal, without an error", async () => {
    const proposal = {
      model: "m",
      asks: 1,
      costUsd: 0,
      problems: [],
      description: "New.",
      system: "s",
      exchanges: [],
    };
    await writeTree(dir, { "iteration-1/improver.json": JSON.stringify(proposal) });
    const earlier = await earlierProposal(join(dir, "iteration-1"));
    expect(earlier).toEqual(proposal);
    expect(earlier).not.toHaveProperty("error");
  });

  it("clears the folder of an iteration whose proposal is unreadable", async () => {
    await writeTree(dir, { "iteration-1/improver.json": "{ broken", "iteration-1/triggers/x.json": "{}" });
    expect(await earlierProposal(join(dir, "iteration-1"))).toBeUndefined();
    expect(await readdir(dir)).toEqual([]);
  });
});

describe("replayDecided", () => {
  it("counts the train runs replay decided, and the first test runs when it made them", () => {
    expect(replayDecided({ train_runs: 10, decided_by_replay: 7, captured: true })).toBe(
      "replay decided 7 of 10 train runs",
    );
    expect(
      replayDecided({
        train_runs: 10,
        decided_by_replay: 7,
        test_first_runs: 4,
        test_decided_by_replay: 3,
        captured: false,
      }),
    ).toBe("replay decided 7 of 10 train runs and 3 of 4 first test runs");
    expect(replayDecided({ train_runs: 2, decided_by_replay: 0, test_first_runs: 4, captured: false })).toBe(
      "replay decided 0 of 2 train runs and 0 of 4 first test runs",
    );
  });
});
