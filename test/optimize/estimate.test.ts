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

  const iteration = (n: number, improverUsd?: number, runs = { trigger: 10, reused: 0, usd: 0.2 }) => ({
    iteration: n,
    description: "d",
    status: "complete",
    ...(improverUsd !== undefined ? { improver: { model: "m", asks: 1, cost_usd: improverUsd } } : {}),
    train: null,
    test: null,
    trigger_runs: runs.trigger,
    ...(runs.reused > 0 ? { reused_runs: runs.reused } : {}),
    cost_usd: runs.usd + (improverUsd ?? 0),
  });

  async function earlier(
    name: string,
    simulated: boolean,
    iterations: ReturnType<typeof iteration>[] = [iteration(0), iteration(1, 0.04)],
  ) {
    await mkdir(join(workspace, name));
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
        iterations,
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

  const defaults = {
    triggerRunUsd: 0.05,
    improverCallUsd: 0.05,
    source: "rough defaults (no earlier real optimization in this workspace)",
  };

  it("takes the latest of several, by the timestamp in the folder's name", async () => {
    await earlier("optimize-20250301-000000", false, [
      iteration(0, undefined, { trigger: 10, reused: 0, usd: 0.3 }),
    ]);
    await earlier("optimize-20250101-000000", false, [
      iteration(0, undefined, { trigger: 10, reused: 0, usd: 0.1 }),
    ]);
    await earlier("optimize-20250201-000000", false, [
      iteration(0, undefined, { trigger: 10, reused: 0, usd: 0.2 }),
    ]);
    const unit = await unitCostsFromOptimizations(workspace);
    expect(unit.source).toBe("measured by optimize-20250301-000000");
    expect(unit.triggerRunUsd).toBeCloseTo(0.03, 10);
  });

  it("ignores a folder not named optimize-*", async () => {
    await earlier("copy-of-an-optimization", false, [iteration(0, 0.04)]);
    expect(await unitCostsFromOptimizations(workspace)).toEqual(defaults);
  });

  it("counts reused runs among the runs the cost is shared by", async () => {
    await earlier("optimize-20250101-000000", false, [
      iteration(0, undefined, { trigger: 6, reused: 4, usd: 0.2 }),
    ]);
    expect((await unitCostsFromOptimizations(workspace)).triggerRunUsd).toBeCloseTo(0.02, 10);
  });

  it("averages the improver's cost over its calls", async () => {
    await earlier("optimize-20250101-000000", false, [iteration(0), iteration(1, 0.03), iteration(2, 0.05)]);
    const unit = await unitCostsFromOptimizations(workspace);
    expect(unit.improverCallUsd).toBeCloseTo(0.04, 10);
    expect(unit.triggerRunUsd).toBeCloseTo(0.02, 10);
  });

  it("keeps the default improver cost when the improver's calls cost nothing", async () => {
    await earlier("optimize-20250101-000000", false, [iteration(0), iteration(1, 0)]);
    expect(await unitCostsFromOptimizations(workspace)).toEqual({
      triggerRunUsd: 0.02,
      improverCallUsd: 0.05,
      source: "measured by optimize-20250101-000000",
    });
  });

  it("learns nothing from an optimization whose runs cost nothing, or which made no run", async () => {
    await earlier("optimize-20250101-000000", false, [
      iteration(0, undefined, { trigger: 10, reused: 0, usd: 0 }),
    ]);
    await earlier("optimize-20250102-000000", false, [
      iteration(0, undefined, { trigger: 0, reused: 0, usd: 0.2 }),
    ]);
    expect(await unitCostsFromOptimizations(workspace)).toEqual(defaults);
  });

  it("uses the defaults when the workspace does not exist", async () => {
    expect(await unitCostsFromOptimizations(join(workspace, "missing"))).toEqual(defaults);
  });
});
