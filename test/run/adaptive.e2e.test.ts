import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent } from "../../src/agents/index.js";
import { buildBenchmark, readIteration } from "../../src/bench/index.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { gradingHooks, judgeGrader } from "../../src/grade/index.js";
import { createJudge } from "../../src/judge/index.js";
import { type EvalOptions, runEvals } from "../../src/run/index.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { agentDouble } from "../agent-double/index.js";
import { fastRetry, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  const poem = [{ type: "file_exists", path: "poem.txt" }];
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd(
      "haiku",
      "Writes a haiku. Use when the user asks for a haiku.",
      "Write poem.txt.",
    ),
    "haiku/evals/evals.json": JSON.stringify({
      evals: [
        { id: "clear", prompt: "write a haiku into poem.txt", expectations: [], checks: poem },
        { id: "flaky", prompt: "write a tanka into poem.txt", expectations: [], checks: poem },
        { id: "even", prompt: "write a limerick into poem.txt", expectations: [], checks: poem },
      ],
    }),
  });
  const write = [{ write: { path: "poem.txt", content: "words\n" } }];
  sim = await startSim({
    script: SimScript.parse({
      rules: [
        // with_skill always writes the poem, without_skill never: a difference of 1 in every pair.
        { match: "haiku into", skill: "haiku", steps: write },
        // Odd runs load the skill (the pattern follows the run number): with_skill passes in runs 1, 3, 5, …, fails
        // in 2, 4, …; without_skill never writes. Pairs 1, 0, 1, 0, 1.
        { match: "tanka into", skill: "haiku", trigger_pattern: [true, false], steps: write },
        // Both configurations write the poem: no difference at all, so the interval never leaves zero.
        { match: "limerick into", skill: "haiku", steps: write, without_skill: write },
      ],
    }),
  });
});
afterEach(async () => {
  await sim.close();
  await cleanup();
});

function options(overrides: Partial<EvalOptions> = {}): EvalOptions {
  return {
    skillPath: join(dir, "haiku"),
    workspace: join(dir, "ws"),
    runs: 2,
    baseline: "without_skill",
    concurrency: 1,
    timeoutSeconds: 60,
    retry: fastRetry,
    createAgent: () => createAgent("claude-code", { binary: agentDouble, simulatorUrl: sim.url }),
    ...gradingHooks({
      createGrader: async () => judgeGrader(await createJudge({ backend: "sim", simulatorUrl: sim.url })),
    }),
    ...overrides,
  };
}

const runFolders = async (iterationDir: string, id: string, configuration: string) =>
  (await readdir(join(iterationDir, `eval-${id}`, configuration))).filter((n) => n.startsWith("run-")).sort();

describe("--adaptive", () => {
  it("adds paired runs only to uncertain evals, stopping when the interval excludes zero or at the cap", async () => {
    const rounds: string[][] = [];
    const summary = await runEvals(
      options({ adaptive: { maxRuns: 6 }, reporter: { onMoreRuns: (info) => rounds.push(info.evals) } }),
    );
    const both = ["eval-flaky", "eval-even"];
    expect(rounds).toEqual([both, both, both, ["eval-even"]]);
    expect(summary.cancelled).toBe(false);
    const counts = async (id: string) => ({
      with: (await runFolders(summary.iterationDir, id, "with_skill")).length,
      without: (await runFolders(summary.iterationDir, id, "without_skill")).length,
    });
    // clear: pairs 1, 1 after the fixed runs: the interval is [1, 1], no run is added.
    expect(await counts("clear")).toEqual({ with: 2, without: 2 });
    // flaky: 1, 0 → 1, 0, 1 → 1, 0, 1, 0 still touch zero; 1, 0, 1, 0, 1 leaves it: five pairs.
    expect(await counts("flaky")).toEqual({ with: 5, without: 5 });
    // even: every pair 0: the cap.
    expect(await counts("even")).toEqual({ with: 6, without: 6 });
    expect(summary.records).toHaveLength(2 * 2 + 5 * 2 + 6 * 2);

    // The extra runs are ordinary runs: the benchmark reads them all and pairs them.
    const benchmark = buildBenchmark(await readIteration(summary.iterationDir));
    const perEval = benchmark.statistics?.per_eval ?? [];
    expect(perEval.map((e) => e.delta_pass_rate?.estimate)).toEqual([1, 0.6, 0]);
    expect(perEval.map((e) => e.delta_pass_rate?.distinguishable)).toEqual([true, true, false]);
  });

  it("without --adaptive keeps the fixed count; without a baseline or a grading it refuses before any run", async () => {
    const fixed = await runEvals(options());
    expect(fixed.records).toHaveLength(3 * 2 * 2);
    const before = sim.log.length;
    await expect(runEvals(options({ adaptive: { maxRuns: 6 }, baseline: "none" }))).rejects.toThrow(
      /--adaptive compares with_skill with a baseline/,
    );
    await expect(runEvals({ ...options({ adaptive: { maxRuns: 6 } }), afterRun: undefined })).rejects.toThrow(
      /--no-grade leaves none/,
    );
    await expect(runEvals(options({ adaptive: { maxRuns: 1 } }))).rejects.toThrow(
      /--max-runs 1 is below --runs 2/,
    );
    expect(sim.log.length).toBe(before);
  });
});
