import { readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OptimizeResults } from "../../src/contracts/optimize-results.js";
import { createJudge } from "../../src/judge/create.js";
import { type OptimizeOptions, runOptimize } from "../../src/optimize/index.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { createDoubleAgent } from "../agent-double/index.js";
import { fastRetry, skillMd, tempDir, writeTree } from "../e2e/helpers.js";
import { scribeQueries } from "./scribe-queries.js";

// The skill's description lacks every word its should-trigger queries use; the sim picks skills by word overlap.
const ORIGINAL = "Tidies the layout of documents.";
const queries = scribeQueries;

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;
const skillDir = () => join(dir, "scribe");

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "scribe/SKILL.md": skillMd("scribe", ORIGINAL, "Write RELEASE_NOTES.md from the git log."),
    "scribe/evals/triggers.json": JSON.stringify(queries),
  });
  sim = await startSim();
});
afterEach(async () => {
  await sim.close();
  await cleanup();
});

function options(overrides: Partial<OptimizeOptions> = {}): OptimizeOptions {
  return {
    skillPath: skillDir(),
    workspace: join(dir, "ws"),
    maxIterations: 3,
    holdout: 0.4,
    runs: 1,
    threshold: 0.5,
    seed: 42,
    concurrency: 8,
    timeoutSeconds: 60,
    retry: fastRetry,
    createAgent: () => createDoubleAgent({ simulatorUrl: sim.url }),
    createImprover: () => createJudge({ backend: "sim", simulatorUrl: sim.url }),
    ...overrides,
  };
}

describe("skillgym optimize with the Claude Code test double against skillgym sim", () => {
  it("raises test recall from the train failures alone and keeps the best description by test score", async () => {
    const before = await readFile(join(skillDir(), "SKILL.md"));
    // results.json is rewritten after every iteration, marked running until the end.
    const written: { status: string; iterations: number }[] = [];
    let folder = "";
    const result = await runOptimize(
      options({
        reporter: {
          onPlan: (info) => {
            folder = info.dir;
          },
          onIterationEnd: () => {
            const partial = JSON.parse(readFileSync(join(folder, "results.json"), "utf8"));
            written.push({ status: partial.status, iterations: partial.iterations.length });
          },
        },
      }),
    );
    const results = OptimizeResults.parse(JSON.parse(await readFile(result.resultsFile, "utf8")));
    const { train, test } = results.split;
    expect(train.length + test.length).toBe(queries.length);
    expect(test.filter((q) => q.should_trigger)).toHaveLength(2);
    expect(test.filter((q) => !q.should_trigger)).toHaveLength(2);

    const [original, improved] = results.iterations;
    expect(original).toMatchObject({ iteration: 0, description: ORIGINAL, status: "complete" });
    expect(original!.test!.summary.recall).toBe(0);
    expect(improved!.test!.summary.recall).toBe(1);
    expect(improved!.test!.summary.precision).toBe(1);
    expect(improved!.description.startsWith(`${ORIGINAL} Use when the user asks about`)).toBe(true);
    expect(results).toMatchObject({
      status: "complete",
      exit_reason: "train_perfect",
      best_iteration: 1,
      best_description: improved!.description,
      final_description: improved!.description,
      original_description: ORIGINAL,
      simulated: true,
      cost_usd: 0,
    });
    expect(results.test_gain).toMatchObject({ original: 0.5, best: 1, gain: 0.5 });
    expect(results.test_gain!.note).toMatch(/^\+0\.50 on test, (beyond|within) noise/);
    expect(results.iterations.map((it) => it.trigger_runs)).toEqual([9, 9]);

    // The improver saw the train failures and never a test query.
    const asked = sim.log.filter((e) => e.action === "judge describer");
    expect(asked).toHaveLength(1);
    for (const q of train.filter((t) => t.should_trigger)) expect(asked[0]!.prompt).toContain(q.query);
    for (const q of test) expect(asked[0]!.prompt).not.toContain(q.query);
    const recorded = await readFile(join(result.dir, "iteration-1", "improver.json"), "utf8");
    for (const q of test) expect(recorded).not.toContain(q.query);

    expect(written).toEqual([
      { status: "running", iterations: 1 },
      { status: "running", iterations: 2 },
    ]);
    const report = await readFile(result.reportFile, "utf8");
    expect(report).not.toContain("http-equiv");
    expect(report).toContain(ORIGINAL);
    expect((await readdir(result.dir)).sort()).toEqual([
      "iteration-0",
      "iteration-1",
      "report.html",
      "results.json",
    ]);

    // Without --apply the user's SKILL.md is byte-identical.
    expect(await readFile(join(skillDir(), "SKILL.md"))).toEqual(before);
  });

  it("refreshes the report while the loop runs", async () => {
    const pages: string[] = [];
    let folder = "";
    await runOptimize(
      options({
        maxIterations: 0,
        reporter: {
          onPlan: (info) => {
            folder = info.dir;
          },
          onIterationStart: () => {
            pages.push(readFileSync(join(folder, "report.html"), "utf8"));
          },
        },
      }),
    );
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('<meta http-equiv="refresh" content="5">');
    expect(readFileSync(join(folder, "report.html"), "utf8")).not.toContain("http-equiv");
  });

  it("stops before an iteration whose estimated cost would cross --max-cost", async () => {
    // A real-priced agent (the sim underneath): 9 queries × 1 run × $0.05 default = $0.45 per evaluation.
    const result = await runOptimize(
      options({
        maxCostUsd: 0.4,
        createAgent: async () => ({
          ...(await createDoubleAgent({ simulatorUrl: sim.url })),
          simulated: false,
        }),
      }),
    );
    expect(result.results).toMatchObject({
      exit_reason: "budget",
      iterations: [],
      best_description: ORIGINAL,
    });
    expect(result.results.estimate.cost_usd).toBeCloseTo(4 * 0.45, 10);
    expect(sim.log).toHaveLength(0);
  });
});
