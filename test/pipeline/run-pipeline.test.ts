import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import { runPipeline } from "../../src/pipeline/index.js";
import type { PipelineOptions } from "../../src/pipeline/options.js";
import { createBudget } from "../../src/run/budget.js";
import { readJson } from "../e2e/helpers.js";
import { CARD_DESCRIPTION, cardPipelineOptions, useCardBench } from "./pipeline-fixtures.js";

// runPipeline in this process, its agent the claude-code adapter on the test double, against one sim for the file.
const bench = useCardBench();

// The simulator marks its runs simulated (and free); the same simulator reached as a real model's endpoint is priced.
const priced = () =>
  createClaudeCodeAgent({
    binary: bench.binary,
    env: { ...process.env, ANTHROPIC_BASE_URL: bench.sim.url, ANTHROPIC_API_KEY: "sk-test" },
  });

function options(workspace: string, overrides: Partial<PipelineOptions> = {}): PipelineOptions {
  return cardPipelineOptions(bench.dir, () => bench.simulated(), {
    workspace: join(bench.dir, workspace),
    ...overrides,
  });
}

describe("runPipeline", () => {
  it("runs the evals graded as they finish and the trigger runs into one iteration, then the benchmark, the report and the gates", async () => {
    const wantsJudge: boolean[] = [];
    const evalEvents: string[] = [];
    const triggerEvents: string[] = [];
    const started = performance.now();
    const result = await runPipeline(
      options("full", {
        createAgent: ({ wantsJudge: judge }) => {
          wantsJudge.push(judge);
          return bench.simulated();
        },
        triggerRuns: 2,
        allRuns: true,
        description: "Makes greeting cards for any occasion.",
        withSkills: [join(bench.dir, "library", "poem")],
        installed: [join(bench.dir, "shelf")],
        effectFloor: 0.2,
        gates: { minPassRate: 0.5, minTriggerAccuracy: 0.5 },
        reporter: {
          onRunEnd: (r) => evalEvents.push(`end ${r.spec.eval.id} ${r.spec.configuration}`),
          onGradeEnd: (s) => evalEvents.push(`graded ${s.eval.id} ${s.configuration}`),
        },
        triggerReporter: { onRunEnd: (r) => triggerEvents.push(`end ${r.spec.queryIndex}`) },
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const iterationDir = join(bench.dir, "full", "iteration-1");
    expect(wantsJudge).toEqual([true]);
    expect(result.iterationDir).toBe(iterationDir);
    expect(result.evals?.iterationDir).toBe(iterationDir);
    expect(result.triggers?.iterationDir).toBe(iterationDir);
    expect(evalEvents.filter((e) => e.startsWith("end")).sort()).toEqual([
      "end 1 with_skill",
      "end 1 without_skill",
      "end 2 with_skill",
      "end 2 without_skill",
    ]);
    expect(evalEvents.filter((e) => e.startsWith("graded")).sort()).toEqual([
      "graded 1 with_skill",
      "graded 1 without_skill",
      "graded 2 with_skill",
      "graded 2 without_skill",
    ]);
    // Every run of every query, though one run settles each.
    expect(triggerEvents.sort()).toEqual(["end 0", "end 0", "end 1", "end 1"]);
    const plan = await readJson(join(iterationDir, "triggers", "plan.json"));
    expect(plan.description).toBe("Makes greeting cards for any occasion.");
    expect(plan.with_skills).toEqual([join(bench.dir, "library", "poem")]);
    expect(plan.installed).toEqual([join(bench.dir, "shelf")]);
    expect(plan.all_runs).toBe(true);
    expect((await readJson(join(iterationDir, "iteration.json"))).status).toBe("complete");

    expect(result.benchmark?.runs).toHaveLength(4);
    expect(result.benchmark?.statistics?.verdict?.floor).toBe(0.2);
    expect(result.benchmark).toEqual(await readJson(join(iterationDir, "benchmark.json")));
    expect(result.reportFile).toBe(join(iterationDir, "report.html"));
    expect(await readFile(join(iterationDir, "report.html"), "utf8")).toContain("card");
    const history = await readJson(join(bench.dir, "full", "history.json"));
    expect(history.iterations).toEqual([
      expect.objectContaining({ version: "iteration-1", effect_floor: 0.2 }),
    ]);

    expect(result.gates).toEqual([
      { name: "min-pass-rate", passed: true, message: "with_skill pass rate 100.0% >= 50.0%" },
      { name: "min-trigger-accuracy", passed: true, message: "trigger accuracy 100.0% >= 50.0%" },
    ]);
    // The simulator's runs are free: what was spent is the judge's two calls (eval 1 with and without the skill).
    expect(result.costUsd).toBe(0.5);
    expect(result.savings).toEqual({ reused: 0, ran: 8, savedUsd: 0 });
    expect(result.budgetExhausted).toBe(false);
    expect(result.cancelled).toBe(false);
    expect(result.simulated).toBe(true);
    expect(result.simScript).toBeUndefined();
    expect(result.agent).toEqual({ name: "claude-code" });
    expect(result.wallSeconds).toBeGreaterThan(0);
    expect(result.wallSeconds).toBeLessThanOrEqual(elapsed);
  }, 120_000);

  it("adds up what the eval runs and the trigger runs cost", async () => {
    const result = await runPipeline(
      options("priced", {
        only: ["2"],
        baseline: "none",
        // As a real binary would report it: a version (the double reports none).
        createAgent: () => priced().then((agent) => ({ ...agent, version: "2.1.0" })),
      }),
    );
    const evalUsd = (result.evals?.records ?? []).reduce((s, r) => s + r.costUsd, 0);
    const triggerUsd = (result.triggers?.records ?? []).reduce((s, r) => s + (r.record.cost_usd ?? 0), 0);
    expect(evalUsd).toBeGreaterThan(0);
    expect(triggerUsd).toBeGreaterThan(0);
    expect(result.costUsd).toBeCloseTo(evalUsd + triggerUsd, 10);
    expect(result.simulated).toBe(false);
    expect(result.savings).toEqual({ reused: 0, ran: 3, savedUsd: 0 });
    expect(result.agent).toEqual({ name: "claude-code", version: "2.1.0" });
  }, 60_000);

  it("starts nothing once --max-cost cannot pay for one run, and marks the iteration unfinished", async () => {
    const result = await runPipeline(options("broke", { maxCostUsd: 0 }));
    expect(result.budgetExhausted).toBe(true);
    expect(result.evals?.records).toEqual([]);
    expect(result.triggers).toBeUndefined();
    expect(result.cancelled).toBe(false);
    expect(result.savings).toEqual({ reused: 0, ran: 0, savedUsd: 0 });
    expect((await readJson(join(result.iterationDir, "iteration.json"))).status).toBe("interrupted");
  }, 60_000);

  it("spends from a budget shared with other agents, starting nothing once it is spent", async () => {
    // The budget shared with other agents wins over --max-cost.
    const budget = createBudget(0, 0.3);
    const result = await runPipeline(options("shared-budget", { budget, maxCostUsd: 100 }));
    expect(result.budgetExhausted).toBe(true);
    expect(budget.exhausted).toBe(true);
    expect(result.triggers).toBeUndefined();
  }, 60_000);

  it("runs no trigger run once cancelled, and says so", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runPipeline(options("cancelled", { signal: controller.signal }));
    expect(result.cancelled).toBe(true);
    expect(result.budgetExhausted).toBe(false);
    expect(result.triggers).toBeUndefined();
    expect(result.evals?.records.every((r) => r.outcome === "cancelled" || r.skipped)).toBe(true);
  }, 60_000);

  it("runs the trigger stage alone into a given iteration folder, leaving the history to its caller", async () => {
    const into = { dir: join(bench.dir, "shared", "iteration-4", "claude-code"), number: 4 };
    const result = await runPipeline(
      options("shared", { stage: "triggers", into, gates: { minPassRate: 0.5, minTriggerAccuracy: 1 } }),
    );
    expect(result.iterationDir).toBe(into.dir);
    expect(result.evals).toBeUndefined();
    expect(result.benchmark).toBeUndefined();
    expect(result.triggers?.iterationDir).toBe(into.dir);
    expect(result.triggers?.results.results.map((r) => r.query)).toEqual([
      "q1 make me a greeting card",
      "q3 what is 2+2",
    ]);
    expect((await readJson(join(into.dir, "triggers", "plan.json"))).description).toBe(CARD_DESCRIPTION);
    expect(result.reportFile).toBe(join(into.dir, "report.html"));
    expect(result.gates).toEqual([
      { name: "min-pass-rate", passed: false, message: "no graded with_skill runs to measure the pass rate" },
      { name: "min-trigger-accuracy", passed: true, message: "trigger accuracy 100.0% >= 100.0%" },
    ]);
    expect(result.simulated).toBe(true);
    expect(result.costUsd).toBe(0);
    await expect(access(join(bench.dir, "shared", "history.json"))).rejects.toThrow();
  }, 60_000);

  it("runs the eval stage alone from another evals file, only the evals asked for, with no judge when none has expectations", async () => {
    const wantsJudge: boolean[] = [];
    const result = await runPipeline(
      options("evals-only", {
        stage: "evals",
        evalsPath: join(bench.dir, "card", "evals", "checks-only.json"),
        only: ["3"],
        baseline: "none",
        createAgent: ({ wantsJudge: judge }) => {
          wantsJudge.push(judge);
          // As `--simulate` makes it: the simulator's agent, with the script it was given (none).
          return bench.simulated().then((agent) => ({ ...agent, simScript: null }));
        },
      }),
    );
    expect(wantsJudge).toEqual([false]);
    expect(result.triggers).toBeUndefined();
    expect(result.evals?.records.map((r) => [r.spec.eval.id, r.spec.configuration])).toEqual([
      [3, "with_skill"],
    ]);
    expect((await readJson(join(result.iterationDir, "iteration.json"))).status).toBe("complete");
    expect(result.simulated).toBe(true);
    expect(result.simScript).toBeNull();
    expect(result.costUsd).toBe(0);
    expect(result.savings).toEqual({ reused: 0, ran: 1, savedUsd: 0 });
    const history = await readJson(join(bench.dir, "evals-only", "history.json"));
    expect(history.iterations).toHaveLength(1);
  }, 60_000);

  it("asks for no judge under --no-grade, though some eval has expectations", async () => {
    const wantsJudge: boolean[] = [];
    await runPipeline(
      options("no-grade", {
        stage: "evals",
        only: ["2"],
        baseline: "none",
        grade: false,
        createAgent: ({ wantsJudge: judge }) => {
          wantsJudge.push(judge);
          return bench.simulated();
        },
      }),
    );
    expect(wantsJudge).toEqual([false]);
  }, 60_000);
});
