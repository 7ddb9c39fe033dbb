import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { unitCostsFromOptimizations } from "../../src/optimize/estimate.js";
import { estimateOptimize } from "../../src/optimize/index.js";

describe("estimateOptimize", () => {
  it("counts every evaluation of every query, and one improver call per iteration", () => {
    const estimate = estimateOptimize({
      queries: 10,
      runs: 3,
      maxIterations: 5,
      unit: { triggerRunUsd: 0.05, improverCallUsd: 0.1, source: "test" },
    });
    expect(estimate).toMatchObject({ evaluations: 6, triggerRuns: 180, improverCalls: 5 });
    expect(estimate.costUsd).toBeCloseTo(180 * 0.05 + 5 * 0.1, 10);
  });
});

describe("unitCostsFromOptimizations", () => {
  let workspace: string;
  beforeEach(async () => {
    workspace = await mkdtemp(join(tmpdir(), "skillgym-estimate-"));
  });
  afterEach(() => rm(workspace, { recursive: true, force: true }));

  async function earlier(name: string, simulated: boolean) {
    await mkdir(join(workspace, name));
    const iteration = (n: number, improverUsd?: number) => ({
      iteration: n,
      description: "d",
      status: "complete",
      ...(improverUsd !== undefined ? { improver: { model: "m", asks: 1, cost_usd: improverUsd } } : {}),
      train: null,
      test: null,
      trigger_runs: 10,
      cost_usd: 0.2 + (improverUsd ?? 0),
    });
    await writeFile(
      join(workspace, name, "results.json"),
      JSON.stringify({
        skill_name: "s",
        skill_path: "/s",
        status: "complete",
        started_at: "2025-01-01T00:00:00Z",
        simulated,
        settings: {
          max_iterations: 1,
          holdout: 0.4,
          runs_per_query: 1,
          threshold: 0.5,
          seed: 1,
          patience: 2,
          improver_backend: "anthropic",
          improver_model: "m",
        },
        score_metric: "accuracy",
        split: { train: [], test: [] },
        estimate: { trigger_runs: 20, improver_calls: 1, cost_usd: 1 },
        original_description: "d",
        best_description: "d",
        best_iteration: 0,
        final_description: "d",
        exit_reason: "max_iterations",
        iterations: [iteration(0), iteration(1, 0.04)],
        test_gain: null,
        cost_usd: 0.44,
      }),
    );
  }

  it("uses the defaults without an earlier real optimization", async () => {
    await earlier("optimize-20250101-000000", true);
    expect(await unitCostsFromOptimizations(workspace)).toMatchObject({
      triggerRunUsd: 0.05,
      improverCallUsd: 0.05,
    });
  });

  it("uses what the latest real optimization measured", async () => {
    await earlier("optimize-20250101-000000", false);
    const unit = await unitCostsFromOptimizations(workspace);
    expect(unit.triggerRunUsd).toBeCloseTo(0.4 / 20, 10);
    expect(unit.improverCallUsd).toBeCloseTo(0.04, 10);
    expect(unit.source).toBe("measured by optimize-20250101-000000");
  });
});
