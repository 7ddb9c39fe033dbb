import { describe, expect, it } from "vitest";
import type { Benchmark } from "../../src/contracts/benchmark.js";
import type { RunHistory, RunHistoryIteration } from "../../src/contracts/run-history.js";
import { historyRow, type PartFacts, parentOf, placeRows } from "../../src/history/history-rows.js";

const stat = (mean: number) => ({ mean, stddev: 0 });
const summary = (passRate: number) => ({
  pass_rate: stat(passRate),
  time_seconds: stat(10),
  tokens: stat(1000),
});

const benchmark: Benchmark = {
  metadata: {
    skill_name: "demo",
    timestamp: "2026-01-15T10:30:00Z",
    evals_run: [1, 2],
    runs_per_configuration: 2,
    baseline_configuration: "without_skill",
  },
  runs: [],
  run_summary: { with_skill: summary(0.75), without_skill: summary(0.5) },
};

const facts = (more: Partial<PartFacts> = {}): PartFacts => ({
  version: "iteration-3",
  iteration: 3,
  agent: "claude-code",
  benchmark,
  ...more,
});

// A row as `run` writes it: with its iteration number.
const runRow = (
  version: string,
  iteration: number,
  more: Partial<RunHistoryIteration> = {},
): RunHistoryIteration => ({
  version,
  parent: null,
  expectation_pass_rate: 0.5,
  grading_result: "baseline",
  is_current_best: false,
  iteration,
  agent: "claude-code",
  ...more,
});

// A row as skill-creator or the tune loop writes it: no iteration number.
const otherRow = (version: string): RunHistoryIteration => ({
  version,
  parent: null,
  expectation_pass_rate: 0.5,
  grading_result: "baseline",
  is_current_best: false,
});

const partRow = (iteration: number, part: string, lane: { agent: string; model: string }) =>
  runRow(`iteration-${iteration}/${part}`, iteration, { part, ...lane });

describe("parentOf", () => {
  it("follows the latest earlier iteration, never the resumed iteration itself nor a later one", () => {
    const rows = [runRow("iteration-1", 1), runRow("iteration-2", 2), runRow("iteration-3", 3)];
    expect(parentOf(rows, facts({ version: "iteration-2", iteration: 2 }))?.version).toBe("iteration-1");
  });

  it("has an ordinary iteration follow the previous ordinary one, not the parts of an iteration of several", () => {
    const rows = [
      runRow("iteration-1", 1),
      partRow(2, "old", { agent: "claude-code", model: "old" }),
      partRow(2, "new", { agent: "claude-code", model: "new" }),
    ];
    expect(parentOf(rows, facts())?.version).toBe("iteration-1");
  });

  it("has a part follow the latest earlier row of its own agent and model, of either shape", () => {
    const rows = [
      runRow("iteration-1", 1, { model: "old" }),
      partRow(2, "claude-code", { agent: "claude-code", model: "new" }),
      partRow(2, "codex", { agent: "codex", model: "new" }),
    ];
    const claudeNew = facts({ part: "claude-code", agent: "claude-code", model: "new" });
    expect(parentOf(rows, claudeNew)?.version).toBe("iteration-2/claude-code");
    expect(parentOf(rows, facts({ part: "old", model: "old" }))?.version).toBe("iteration-1");
  });
});

describe("historyRow", () => {
  it("makes a row without a parent its part's baseline, with the benchmark's figures, not yet anyone's best", () => {
    expect(historyRow(facts(), undefined, undefined, 0.05)).toStrictEqual({
      version: "iteration-3",
      parent: null,
      expectation_pass_rate: 0.75,
      grading_result: "baseline",
      is_current_best: false,
      iteration: 3,
      agent: "claude-code",
      timestamp: "2026-01-15T10:30:00Z",
      with_skill_pass_rate: 0.75,
      baseline_configuration: "without_skill",
      baseline_pass_rate: 0.5,
      delta: null,
      verdict: null,
      effect_floor: 0.05,
    });
  });

  it("records the trigger accuracy of an iteration that ran trigger evals, null when it could not be computed", () => {
    const row = (triggerAccuracy: number | null) =>
      historyRow(facts({ triggerAccuracy }), undefined, undefined, 0.05);
    expect(row(0.8).trigger_accuracy).toBe(0.8);
    expect(row(null)).toHaveProperty("trigger_accuracy", null);
  });
});

describe("placeRows", () => {
  const about = { skillName: "demo", now: "2026-02-01T00:00:00Z" };
  const history = (iterations: RunHistoryIteration[]): RunHistory => ({
    started_at: "2026-01-01T00:00:00Z",
    skill_name: "demo",
    current_best: "v0",
    iterations,
  });
  const versions = (placed: RunHistory) => placed.iterations.map((row) => row.version);

  it("puts the rows of other writers before the rows of run, wherever the file had them", () => {
    const placed = placeRows(
      history([runRow("iteration-1", 1), otherRow("v0")]),
      [runRow("iteration-2", 2)],
      about,
    );
    expect(versions(placed)).toEqual(["v0", "iteration-1", "iteration-2"]);
  });

  it("keeps the rows of run in iteration order, a late one in its place", () => {
    const placed = placeRows(
      history([runRow("iteration-1", 1), runRow("iteration-3", 3)]),
      [runRow("iteration-2", 2)],
      about,
    );
    expect(versions(placed)).toEqual(["iteration-1", "iteration-2", "iteration-3"]);
  });

  it("names no current best in a history with no rows at all", () => {
    expect(placeRows(undefined, [], about)).toEqual({
      started_at: "2026-02-01T00:00:00Z",
      skill_name: "demo",
      current_best: "",
      iterations: [],
    });
  });
});
