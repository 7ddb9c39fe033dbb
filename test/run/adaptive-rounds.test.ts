import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EvalCase } from "../../src/contracts/evals.js";
import { evalCertainty, runAdaptiveRounds } from "../../src/run/adaptive.js";
import type { RunSpec } from "../../src/run/plan.js";
import type { ResolvedEval } from "../../src/suite/model.js";
import { type FixtureRun, grading, iterationRecord, makeIteration } from "../bench/iteration-fixture.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const configurations = ["with_skill", "without_skill"] as const;

function resolved(id: number): ResolvedEval {
  return {
    ...EvalCase.parse({ id, prompt: `do task ${id}`, expectations: ["a"] }),
    numericId: id,
    fixtures: [],
  };
}

async function iteration(runs: FixtureRun[], runsPerConfiguration = 1) {
  const made = await makeIteration({
    record: iterationRecord({
      plan: { evals: [1, 2], configurations, runs_per_configuration: runsPerConfiguration },
    }),
    evals: [
      { id: 1, assertions: ["a"] },
      { id: 2, assertions: ["a"] },
    ],
    runs,
  });
  cleanup = made.cleanup;
  return made.dir;
}

const pair = (evalId: number, run: number, withSkill: boolean, without: boolean): FixtureRun[] => [
  { eval: evalId, configuration: "with_skill", run, results: { a: withSkill } },
  { eval: evalId, configuration: "without_skill", run, results: { a: without } },
];

// A graded run as the scheduler would leave it: eval 1 always passes with the skill and fails without; eval 2 passes both.
async function gradeRun(spec: RunSpec): Promise<void> {
  const passed = spec.configuration === "with_skill" || spec.eval.id === 2;
  await mkdir(spec.runDir, { recursive: true });
  await writeFile(join(spec.runDir, "grading.json"), JSON.stringify(grading({ a: passed })));
  await writeFile(
    join(spec.runDir, "timing.json"),
    JSON.stringify({ outcome: "success", total_tokens: 100, total_duration_seconds: 1, attempts: 1 }),
  );
}

describe("evalCertainty", () => {
  it("leaves an eval with a single pair unsettled: no interval is drawn from one pair", async () => {
    const dir = await iteration([...pair(1, 1, true, false), ...pair(2, 1, true, true)]);
    expect(await evalCertainty(dir, "without_skill")).toEqual([
      { folder: "eval-1", settled: false },
      { folder: "eval-2", settled: false },
    ]);
  });

  it("settles an eval once its interval excludes zero, and not one whose interval holds zero", async () => {
    const dir = await iteration(
      [1, 2, 3].flatMap((k) => [...pair(1, k, true, false), ...pair(2, k, k !== 2, k !== 3)]),
      3,
    );
    expect(await evalCertainty(dir, "without_skill")).toEqual([
      { folder: "eval-1", settled: true },
      { folder: "eval-2", settled: false },
    ]);
  });
});

describe("runAdaptiveRounds", () => {
  it("adds one pair per round to each unsettled eval, only the new run, until settled or at the cap", async () => {
    const dir = await iteration([...pair(1, 1, true, false), ...pair(2, 1, true, true)]);
    const rounds: string[][] = [];
    const result = await runAdaptiveRounds({
      adaptive: { maxRuns: 3 },
      iterationDir: dir,
      evals: [resolved(1), resolved(2)],
      configurations: [...configurations],
      runs: 1,
      defaultTimeoutSeconds: 60,
      stopped: () => false,
      schedule: async (specs) => {
        rounds.push(specs.map((s) => `eval-${s.eval.id} ${s.configuration} run-${s.runNumber}`));
        for (const spec of specs) await gradeRun(spec);
        return specs;
      },
    });
    expect(rounds).toEqual([
      [
        "eval-1 with_skill run-2",
        "eval-1 without_skill run-2",
        "eval-2 with_skill run-2",
        "eval-2 without_skill run-2",
      ],
      // Eval 1 differs by 1 in both pairs and is settled; eval 2 differs by 0 and goes on to the cap.
      ["eval-2 with_skill run-3", "eval-2 without_skill run-3"],
    ]);
    expect(result.planned).toBe(6);
    expect(result.records).toHaveLength(6);
  });
});
