import { describe, expect, it } from "vitest";
import { captureIo } from "../../../src/cli/io.js";
import {
  estimateLine,
  optimizeProgress,
  optimizeScreenLine,
  optimizeScreenPlanLine,
  optimizeSummary,
} from "../../../src/cli/reporters/optimize.js";
import type {
  OptimizeIteration,
  OptimizeResults,
  OptimizeSubsetScore,
} from "../../../src/contracts/optimize-results.js";
import type { OptimizeEstimate } from "../../../src/optimize/index.js";

const estimate = (costUsd: number, triggerRunUsd: number, improverCallUsd: number): OptimizeEstimate => ({
  evaluations: 4,
  queries: 10,
  runs: 3,
  triggerRuns: 120,
  improverCalls: 3,
  costUsd,
  unit: { triggerRunUsd, improverCallUsd, source: "measured by optimize-20261120T101010Z" },
});

const side = (score: number | null, passed: number, total: number): OptimizeSubsetScore => ({
  score,
  summary: {
    total,
    passed,
    failed: total - passed,
    errors: 0,
    precision: null,
    recall: null,
    f1: null,
    accuracy: score,
  },
  results: [],
});

const iteration = (n: number, over: Partial<OptimizeIteration> = {}): OptimizeIteration => ({
  iteration: n,
  description: `description ${n}`,
  status: "complete",
  train: side(0.5, 3, 6),
  test: side(0.75, 3, 4),
  trigger_runs: 30,
  cost_usd: 0.3,
  ...over,
});

const results = (over: Partial<OptimizeResults> = {}): OptimizeResults => ({
  skill_name: "pdf",
  skill_path: "/skills/pdf",
  status: "complete",
  started_at: "2026-11-27T10:00:00Z",
  simulated: false,
  settings: {
    max_iterations: 3,
    holdout: 0.4,
    runs_per_query: 3,
    threshold: 0.5,
    seed: 1,
    patience: 2,
    improver_backend: "anthropic",
    improver_model: "claude-sonnet",
  },
  score_metric: "accuracy",
  split: { train: [], test: [] },
  estimate: { trigger_runs: 120, improver_calls: 3, cost_usd: 1.2 },
  original_description: "Reads PDFs.",
  best_description: "Reads, fills and merges PDF files.",
  best_iteration: 2,
  final_description: "Reads, fills and merges PDF files.",
  exit_reason: "max_iterations",
  iterations: [
    iteration(0),
    iteration(1, { train: side(0.6, 4, 6), test: side(0.5, 2, 4) }),
    iteration(2, { train: side(1, 6, 6), test: side(1, 4, 4) }),
  ],
  test_gain: null,
  cost_usd: 1.234,
  ...over,
});

const files = { results: "/ws/optimize-1/results.json", report: "/ws/optimize-1/report.html" };

describe("estimateLine", () => {
  it("gives the runs and the priced estimate, with no --max-cost", () => {
    expect(estimateLine(estimate(1.5, 0.01, 0.05), undefined, false)).toBe(
      "up to 4 evaluations (the original + 3 proposals) × 10 queries × 3 runs = 120 trigger runs, plus up to 3 improver calls (twice that with re-asks)\n" +
        "estimated cost at most about $1.50 ($0.01 per trigger run, $0.05 per improver call: measured by optimize-20261120T101010Z)",
    );
  });

  it("prints sub-cent unit costs with four digits, and zero with two", () => {
    expect(estimateLine(estimate(0, 0.0042, 0), undefined, false).split("\n")[1]).toBe(
      "estimated cost at most about $0.00 ($0.0042 per trigger run, $0.00 per improver call: measured by optimize-20261120T101010Z)",
    );
    expect(estimateLine(estimate(0.01, 0.01, 0.0099), undefined, false).split("\n")[1]).toBe(
      "estimated cost at most about $0.01 ($0.01 per trigger run, $0.0099 per improver call: measured by optimize-20261120T101010Z)",
    );
  });

  it("says a simulated loop costs nothing", () => {
    expect(estimateLine(estimate(1.5, 0.01, 0.05), undefined, true).split("\n")[1]).toBe(
      "cost $0 (simulated)",
    );
  });

  it("names --max-cost, and says when it is lower than the estimate; equal is not lower", () => {
    const second = (max: number) => estimateLine(estimate(1.5, 0.01, 0.05), max, false).split("\n")[1];
    expect(second(2)).toMatch(/\(\$0\.01 per trigger run, .*\); --max-cost \$2\.00$/);
    expect(second(1.5)).toMatch(/; --max-cost \$1\.50$/);
    expect(second(1.49)).toMatch(
      /; --max-cost \$1\.49 is lower: the loop stops before an iteration would cross it$/,
    );
    expect(estimateLine(estimate(1.5, 0.01, 0.05), 1, true).split("\n")[1]).toBe(
      "cost $0 (simulated); --max-cost $1.00 is lower: the loop stops before an iteration would cross it",
    );
  });
});

describe("optimizeProgress", () => {
  const plan = {
    dir: "/ws/optimize-1",
    train: 6,
    test: 4,
    estimate: estimate(1.5, 0.01, 0.05),
    simulated: false,
  };

  it("prints the plan of a new optimization", () => {
    const io = captureIo();
    optimizeProgress(io).onPlan?.(plan);
    expect(io.stderr()).toBe(
      "optimizing into /ws/optimize-1\n" +
        "split: 6 train queries, 4 held-out test queries\n" +
        `${estimateLine(plan.estimate, undefined, false)}\n` +
        "live report: /ws/optimize-1/report.html\n",
    );
  });

  it("prints the plan of a resumed, simulated optimization against --max-cost", () => {
    const io = captureIo();
    optimizeProgress(io).onPlan?.({ ...plan, simulated: true, maxCostUsd: 1, resumed: { kept: 2 } });
    expect(io.stderr()).toBe(
      "resuming /ws/optimize-1: 2 finished iterations kept, finished trigger runs reused [SIMULATED: skillgym sim answers, not a model]\n" +
        "split: 6 train queries, 4 held-out test queries\n" +
        `${estimateLine(plan.estimate, 1, true)}\n` +
        "live report: /ws/optimize-1/report.html\n",
    );
  });

  it("prints an iteration's start, clipping a long description to 90 characters", () => {
    const io = captureIo();
    const progress = optimizeProgress(io);
    progress.onIterationStart?.({ iteration: 1, description: "a".repeat(90) });
    progress.onIterationStart?.({ iteration: 2, description: "b".repeat(91) });
    expect(io.stderr()).toBe(`\niteration 1: ${"a".repeat(90)}\n\niteration 2: ${"b".repeat(89)}…\n`);
  });

  it("prints the improver's re-asks and its error, and nothing for a clean proposal", () => {
    const io = captureIo();
    const progress = optimizeProgress(io);
    const proposal = {
      model: "m",
      asks: 1,
      costUsd: 0,
      problems: [] as string[],
      system: "",
      exchanges: [],
    };
    progress.onProposal?.({ iteration: 1, proposal: { ...proposal, description: "d" } });
    expect(io.stderr()).toBe("");
    progress.onProposal?.({
      iteration: 2,
      proposal: { ...proposal, problems: ["too long", "contains <"], error: "no usable description" },
    });
    expect(io.stderr()).toBe(
      "  improver re-asked: too long; contains <\n  iteration 2: no usable description\n",
    );
  });

  it("prints each evaluated iteration's scores, its repeat, its replay and an interruption", () => {
    const io = captureIo();
    const progress = optimizeProgress(io);
    progress.onIterationEnd?.(iteration(1));
    progress.onIterationEnd?.(iteration(2, { repeat_of: 0 }));
    progress.onIterationEnd?.(
      iteration(3, { replay: { train_runs: 18, decided_by_replay: 12, captured: true } }),
    );
    progress.onIterationEnd?.(iteration(4, { status: "interrupted", train: null, test: side(null, 0, 0) }));
    progress.onIterationEnd?.(iteration(5, { status: "improver_failed" }));
    progress.onIterationEnd?.(iteration(6, { status: "interrupted", test: null }));
    expect(io.stderr().split("\n")).toEqual([
      "  iteration 1: train 50% (3/6 passed), test 75% (3/4 passed)",
      "  iteration 2: train 50% (3/6 passed), test 75% (3/4 passed) (same as iteration 0; not run again)",
      "  iteration 3: train 50% (3/6 passed), test 75% (3/4 passed); replay decided 12 of 18 train runs",
      "  iteration 4: train n/a (0/0 passed), test n/a (0/0 passed) — interrupted",
      "  iteration 6: train 50% (3/6 passed), test n/a (0/0 passed) — interrupted",
      "",
    ]);
  });
});

describe("optimizeScreenPlanLine", () => {
  const screen = { kind: "replay" as const, capture_runs: 2, replay_requests: 30, agent_runs_up_to: 40 };

  it("says replay is off and why, or the default reason", () => {
    expect(optimizeScreenPlanLine({ screenOff: "no API key" })).toBe(
      "replay off (no API key): every trigger run is an agent run",
    );
    expect(optimizeScreenPlanLine({})).toBe("replay off (--screen none): every trigger run is an agent run");
  });

  it("says what replay screens: the train runs, and the test queries' first runs", () => {
    expect(optimizeScreenPlanLine({ screen })).toBe(
      "replay on the train runs: 2 capture runs (one per description, unless stored), 30 replay requests, " +
        "up to 40 agent runs (the test runs, and the runs replay leaves undecided)",
    );
    expect(optimizeScreenPlanLine({ screen, screenTestFirstRuns: true })).toMatch(
      /^replay on the train runs and each test query's first run: 2 capture runs/,
    );
  });
});

describe("optimizeScreenLine", () => {
  it("is undefined when replay was not asked", () => {
    expect(optimizeScreenLine(results())).toBeUndefined();
  });

  it("says replay was off, and why", () => {
    expect(optimizeScreenLine(results({ screen: { kind: "none", asked: true, off: "no API key" } }))).toBe(
      "replay off (no API key): the agent made every trigger run",
    );
    expect(optimizeScreenLine(results({ screen: { kind: "none", asked: true } }))).toBe(
      "replay off (--screen none): the agent made every trigger run",
    );
  });

  it("sums replay over the iterations: train runs only, one capture", () => {
    const line = optimizeScreenLine(
      results({
        screen: { kind: "replay", asked: false },
        iterations: [
          iteration(0, { replay: { train_runs: 18, decided_by_replay: 12, captured: true } }),
          iteration(1, { replay: { train_runs: 18, decided_by_replay: 10, captured: false } }),
          iteration(2),
        ],
      }),
    );
    // 90 trigger runs, 22 decided by replay, 1 capture: 90 - 22 + 1 = 69 agent runs.
    expect(line).toBe(
      "replay decided 22 of 36 train runs; agent runs: 69 (68 trigger runs, 1 capture); test runs are the agent's",
    );
  });

  it("sums the test queries' first runs too, counts captures, and lists each reason replay went off once", () => {
    const line = optimizeScreenLine(
      results({
        screen: { kind: "replay", asked: true },
        iterations: [
          iteration(0, {
            replay: {
              train_runs: 18,
              decided_by_replay: 12,
              test_first_runs: 4,
              test_decided_by_replay: 3,
              captured: true,
            },
          }),
          iteration(1, {
            replay: {
              train_runs: 18,
              decided_by_replay: 0,
              test_first_runs: 4,
              captured: true,
              off: "stale",
            },
          }),
          iteration(2, {
            replay: { train_runs: 18, decided_by_replay: 0, captured: false, off: "stale" },
          }),
          iteration(3, {
            replay: { train_runs: 18, decided_by_replay: 5, captured: false, off: "verification below 95%" },
          }),
        ],
      }),
    );
    // 120 trigger runs, 17 train + 3 test decided by replay, 2 captures.
    expect(line).toBe(
      "replay decided 17 of 72 train runs and 3 of 8 first test runs; agent runs: 102 (100 trigger runs, 2 captures); " +
        "every test verdict holds the agent's runs; replay off: stale; verification below 95%",
    );
  });

  it("says zero captures in the plural", () => {
    const line = optimizeScreenLine(
      results({
        screen: { kind: "replay", asked: true },
        iterations: [iteration(0, { replay: { train_runs: 18, decided_by_replay: 18, captured: false } })],
      }),
    );
    expect(line).toBe(
      "replay decided 18 of 18 train runs; agent runs: 12 (12 trigger runs, 0 captures); test runs are the agent's",
    );
  });
});

describe("optimizeSummary", () => {
  it("prints why it stopped, the original and the best description, and the files", () => {
    expect(optimizeSummary(results(), files)).toBe(
      [
        "stopped: reached --max-iterations after 3 iterations; cost $1.23",
        "original (test 75%): Reads PDFs.",
        "best, iteration 2 (test 100%, train 100%): Reads, fills and merges PDF files.",
        "SKILL.md unchanged (use --apply to write the best description into it)",
        "results: /ws/optimize-1/results.json",
        "report:  /ws/optimize-1/report.html",
        "",
      ].join("\n"),
    );
  });

  it("says a simulated, interrupted run, its gain, its replay and how it was applied", () => {
    const text = optimizeSummary(
      results({
        simulated: true,
        status: "interrupted",
        exit_reason: "cancelled",
        cost_usd: 0.004,
        test_gain: {
          original: 0.75,
          best: 1,
          gain: 0.25,
          ci_low: 0.05,
          ci_high: 0.45,
          confidence: 0.95,
          beyond_noise: true,
          note: "+25 points, beyond noise",
        },
        screen: { kind: "none", asked: true },
      }),
      files,
      "SKILL.md updated with the best description",
    );
    expect(text).toBe(
      [
        "SIMULATED: skillgym sim stood in for the agent and the improver; these scores test the harness, not the description.",
        "stopped: cancelled after 3 iterations; cost $0.0040",
        "original (test 75%): Reads PDFs.",
        "best, iteration 2 (test 100%, train 100%): Reads, fills and merges PDF files.",
        "best vs original: +25 points, beyond noise",
        "replay off (--screen none): the agent made every trigger run",
        "SKILL.md updated with the best description",
        "continue with: skillgym optimize /skills/pdf --resume /ws/optimize-1",
        "results: /ws/optimize-1/results.json",
        "report:  /ws/optimize-1/report.html",
        "",
      ].join("\n"),
    );
  });

  it("says n/a and — when nothing was scored", () => {
    const text = optimizeSummary(
      results({ iterations: [], best_iteration: null, exit_reason: "error", cost_usd: 0 }),
      files,
    );
    expect(text.split("\n").slice(0, 3)).toEqual([
      "stopped: an error stopped it after 0 iterations; cost $0.00",
      "original (test n/a): Reads PDFs.",
      "best, iteration — (test n/a, train n/a): Reads, fills and merges PDF files.",
    ]);
  });

  it("says n/a for the sides an interrupted first iteration did not score", () => {
    const text = optimizeSummary(
      results({
        status: "interrupted",
        best_iteration: 0,
        iterations: [iteration(0, { status: "interrupted", train: null, test: null })],
      }),
      files,
    );
    expect(text.split("\n").slice(1, 3)).toEqual([
      "original (test n/a): Reads PDFs.",
      "best, iteration 0 (test n/a, train n/a): Reads, fills and merges PDF files.",
    ]);
  });

  it("finds the original and the best by their iteration number, not their place", () => {
    const text = optimizeSummary(
      results({
        best_iteration: 1,
        iterations: [
          iteration(1, { train: side(0.25, 1, 4), test: side(0.5, 2, 4) }),
          iteration(0, { test: side(0.2, 1, 5) }),
        ],
      }),
      files,
    );
    expect(text.split("\n").slice(1, 3)).toEqual([
      "original (test 20%): Reads PDFs.",
      "best, iteration 1 (test 50%, train 25%): Reads, fills and merges PDF files.",
    ]);
  });
});
