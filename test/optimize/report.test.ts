import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonSchemaOf } from "../../src/contracts/index.js";
import { OptimizeResults } from "../../src/contracts/optimize-results.js";
import { optimizeFolderName, renderOptimizeReport, writeOptimizeOutput } from "../../src/optimize/index.js";

const evil = "</script><script>alert(1)</script>";

function results(status: "running" | "complete"): OptimizeResults {
  const side = (query: string, triggers: number) => ({
    score: triggers,
    summary: {
      total: 1,
      passed: triggers,
      failed: 1 - triggers,
      errors: 0,
      precision: null,
      recall: triggers,
      f1: null,
      accuracy: triggers,
    },
    results: [
      {
        query,
        should_trigger: true,
        trigger_rate: triggers,
        triggers,
        runs: 1,
        errors: 0,
        pass: triggers === 1,
      },
    ],
  });
  return OptimizeResults.parse({
    skill_name: "scribe",
    skill_path: "/s/scribe",
    status,
    started_at: "2025-01-31T14:25:02.000Z",
    simulated: true,
    settings: {
      max_iterations: 5,
      holdout: 0.4,
      runs_per_query: 1,
      threshold: 0.5,
      seed: 42,
      patience: 2,
      improver_backend: "sim",
      improver_model: "skillgym-sim",
    },
    score_metric: "accuracy over runs",
    split: {
      train: [{ query: `train ${evil}`, should_trigger: true }],
      test: [{ query: `test ${evil}`, should_trigger: true }],
    },
    estimate: { trigger_runs: 12, improver_calls: 5, cost_usd: 0 },
    original_description: "Formats documents.",
    best_description: `Better ${evil}`,
    best_iteration: 1,
    final_description: `Better ${evil}`,
    exit_reason: status === "running" ? "running" : "train_perfect",
    iterations: [
      {
        iteration: 0,
        description: "Formats documents.",
        status: "complete",
        train: side(`train ${evil}`, 0),
        test: side(`test ${evil}`, 0),
        trigger_runs: 2,
        cost_usd: 0,
      },
      {
        iteration: 1,
        description: `Better ${evil}`,
        status: "complete",
        improver: { model: "skillgym-sim", asks: 2, cost_usd: 0, problems: [`too long ${evil}`] },
        train: side(`train ${evil}`, 1),
        test: side(`test ${evil}`, 1),
        trigger_runs: 2,
        cost_usd: 0,
      },
    ],
    test_gain: null,
    cost_usd: 0,
  });
}

describe("the optimizer's report", () => {
  it("escapes every description, query and note", () => {
    const html = renderOptimizeReport(results("complete"));
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("SIMULATED");
    expect(html).toContain("every train query passes");
  });

  it("refreshes itself while running, and stops refreshing when done", () => {
    expect(renderOptimizeReport(results("running"))).toContain('<meta http-equiv="refresh" content="5">');
    expect(renderOptimizeReport(results("complete"))).not.toContain("http-equiv");
  });

  it("writes results.json and report.html into the folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), "skillgym-report-"));
    try {
      await writeOptimizeOutput(dir, results("complete"));
      const onDisk = OptimizeResults.parse(JSON.parse(await readFile(join(dir, "results.json"), "utf8")));
      expect(onDisk.best_iteration).toBe(1);
      expect(await readFile(join(dir, "report.html"), "utf8")).toContain("Description optimizer: scribe");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("names its folder by the UTC time, so folders sort by time", () => {
    expect(optimizeFolderName(new Date("2025-01-31T14:25:02.123Z"))).toBe("optimize-20250131-142502");
  });

  it("publishes results.json's JSON Schema as optimize-results", () => {
    const schema = jsonSchemaOf("optimize-results") as { title: string; required: string[] };
    expect(schema.title).toBe("skillgym optimize-results");
    expect(schema.required).toEqual(expect.arrayContaining(["best_description", "iterations", "test_gain"]));
  });
});
