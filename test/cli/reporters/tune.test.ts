import { describe, expect, it } from "vitest";
import { captureIo } from "../../../src/cli/io.js";
import { tuneJson, tuneProgress, tuneSummaryLines } from "../../../src/cli/reporters/tune.js";
import { IterationState } from "../../../src/contracts/iteration-state.js";
import { defaultUnitCosts } from "../../../src/pipeline/estimate.js";
import type { TuneResult } from "../../../src/tune/index.js";
import { tuneState } from "../../report/tune-fixture.js";

// A completed three-round tune of release-notes: v0 52.5, v1 78.25 (won), v2 64.5 (lost).
const state = IterationState.parse(tuneState);
const estimate = {
  evalRuns: 24,
  improverRuns: 2,
  judgeCalls: 27,
  costUsd: 8.456,
  unitCosts: defaultUnitCosts,
};

const result = (over: Partial<TuneResult> = {}): TuneResult => ({
  tuneDir: "/ws/tune-1",
  state,
  resumed: false,
  cancelled: false,
  reportFile: "/ws/tune-1/tune-report.md",
  best: { version: "v1", score: 78.25, dirs: { "release-notes": "/ws/tune-1/v1/release-notes" } },
  skillPaths: { "release-notes": "/skills/release-notes", "change-log": "/skills/change-log" },
  originalDirs: { "release-notes": "/ws/tune-1/original/release-notes" },
  diffs: [{ name: "release-notes", diff: "--- a/SKILL.md\n+++ b/SKILL.md\n" }],
  costUsd: 1.23456,
  simulated: false,
  ...over,
});

describe("tuneProgress", () => {
  it("prints the start of a tune with its estimate, each iteration, score, edit, failure and the end", () => {
    const io = captureIo();
    const progress = tuneProgress(io);
    progress.onStart?.({ tuneDir: "/ws/tune-1", resumed: false, state, estimate, simulated: false });
    progress.onIterationStart?.({ round: 1, maxIterations: 3, version: "v0" });
    progress.onEvaluated?.({ round: 1, version: "v0", score: 52.5, passRate: 0.504, result: "baseline" });
    progress.onImproved?.({ round: 1, targets: ["release-notes"], rolledBack: false });
    progress.onEvaluated?.({
      round: 2,
      version: "v1",
      score: 78.25,
      passRate: 0.755,
      result: "won",
      skillScores: { "release-notes": 80, "change-log": 76.5 },
      warning: "2 runs errored",
    });
    progress.onImproved?.({
      round: 2,
      targets: ["release-notes", "change-log"],
      rolledBack: true,
      error: "the edit broke the frontmatter",
    });
    progress.onError?.({ round: 3, phase: "execute", message: "agent crashed" });
    progress.onEnd?.({ reason: "max_iterations_reached", bestVersion: "v1", bestScore: 78.25 });
    expect(io.stderr().split("\n")).toEqual([
      "tuning release-notes in /ws/tune-1: up to 3 iterations, threshold 70",
      "estimated cost: at most $8.46 (24 eval runs, 2 improver runs, 27 judge calls)",
      "iteration 1/3: measuring v0",
      "  v0: score 52.5 (pass rate 50%): baseline",
      "  edited release-notes",
      "  v1: score 78.25 (pass rate 76%) [release-notes 80, change-log 76.5]: won (warning: 2 runs errored)",
      "  edit of release-notes, change-log not kept: the edit broke the frontmatter",
      "  execute failed: agent crashed",
      "stopped: the last iteration was run",
      "",
    ]);
  });

  it("says a simulated, resumed chain's skills in their order, without an estimate; an interrupted end", () => {
    const io = captureIo();
    const progress = tuneProgress(io);
    const chain = IterationState.parse({
      ...tuneState,
      target_skills: undefined,
      skill_names: ["outline", "draft"],
      execution_mode: "chain",
      chain_order: ["outline", "draft"],
    });
    progress.onStart?.({ tuneDir: "/ws/tune-2", resumed: true, state: chain, simulated: true });
    progress.onEnd?.({ reason: null, bestVersion: null, bestScore: null });
    expect(io.stderr().split("\n")).toEqual([
      "SIMULATED: skillgym sim answers, not a model",
      "resuming outline → draft in /ws/tune-2: up to 3 iterations, threshold 70",
      "stopped: interrupted",
      "",
    ]);
  });

  it("joins several skills of a single-mode tune with commas", () => {
    const io = captureIo();
    const several = IterationState.parse({ ...tuneState, target_skills: ["outline", "draft"] });
    tuneProgress(io).onStart?.({ tuneDir: "/ws/tune-3", resumed: false, state: several, simulated: false });
    expect(io.stderr()).toBe("tuning outline, draft in /ws/tune-3: up to 3 iterations, threshold 70\n");
  });

  it("names every skill an edit kept changed", () => {
    const io = captureIo();
    tuneProgress(io).onImproved?.({ round: 1, targets: ["outline", "draft"], rolledBack: false });
    expect(io.stderr()).toBe("  edited outline, draft\n");
  });
});

describe("tuneSummaryLines", () => {
  it("prints why it completed, the score trend, the best, the cost, the report and how to apply it", () => {
    expect(tuneSummaryLines(result(), undefined)).toEqual([
      "tune /ws/tune-1: completed: the quality threshold was met",
      "scores: v0 52.5 (baseline) → v1 78.25 (won) → v2 64.5 (lost)",
      "best: v1, 78.25/100",
      "cost: $1.2346",
      "report: /ws/tune-1/tune-report.md",
      "your skill is unchanged; to apply the best version: skillgym tune --resume /ws/tune-1 --apply",
    ]);
  });

  it("says where the best version was applied, or that nothing was to apply", () => {
    expect(tuneSummaryLines(result(), ["release-notes", "change-log"]).at(-1)).toBe(
      "applied to: /skills/release-notes, /skills/change-log",
    );
    expect(tuneSummaryLines(result(), []).at(-1)).toBe("nothing to apply");
  });

  it("says nothing of applying when no skill changed", () => {
    expect(tuneSummaryLines(result({ diffs: [{ name: "release-notes", diff: "" }] }), undefined).at(-1)).toBe(
      "report: /ws/tune-1/tune-report.md",
    );
    expect(tuneSummaryLines(result({ diffs: [] }), undefined).at(-1)).toBe(
      "report: /ws/tune-1/tune-report.md",
    );
  });

  it("says how to continue an interrupted, simulated tune, with no trend and no best yet", () => {
    const running = IterationState.parse({
      ...tuneState,
      status: "running",
      termination_reason: null,
      current_iteration: 1,
      current_best: null,
      latest_score: null,
      best_score: null,
      score_trend: [],
      iterations: [{ round: 1, version: "v0", status: "executing" }],
    });
    expect(
      tuneSummaryLines(
        result({
          state: running,
          cancelled: true,
          simulated: true,
          best: { version: null, score: null, dirs: {} },
        }),
        undefined,
      ),
    ).toEqual([
      "SIMULATED: skillgym sim stood in for the model; these scores test the loop, not the skill.",
      "tune /ws/tune-1: interrupted; continue with: skillgym tune --resume /ws/tune-1",
      "cost: $1.2346",
      "report: /ws/tune-1/tune-report.md",
    ]);
  });

  it("gives the state's status when the tune ended without a reason and was not interrupted", () => {
    const failed = IterationState.parse({ ...tuneState, status: "failed", termination_reason: null });
    expect(tuneSummaryLines(result({ state: failed }), undefined)[0]).toBe("tune /ws/tune-1: failed");
  });
});

describe("tuneJson", () => {
  it("gives the tune's record as --json prints it", () => {
    expect(tuneJson(result({ estimate }), ["release-notes"])).toEqual({
      tune_dir: "/ws/tune-1",
      status: "completed",
      cancelled: false,
      termination_reason: "quality_threshold_met",
      simulated: false,
      best_version: "v1",
      best_score: 78.25,
      score_trend: [52.5, 78.25, 64.5],
      iterations: [
        { version: "v0", status: "completed", score: 52.5, grading_result: "baseline" },
        { version: "v1", status: "completed", score: 78.25, grading_result: "won" },
        { version: "v2", status: "completed", score: 64.5, grading_result: "lost" },
      ],
      cost_usd: 1.23456,
      estimate,
      report: "/ws/tune-1/tune-report.md",
      diff: "--- a/SKILL.md\n+++ b/SKILL.md\n",
      applied: ["release-notes"],
    });
  });

  it("gives null for what is not known yet, and joins every skill's diff", () => {
    const running = IterationState.parse({
      ...tuneState,
      current_iteration: 1,
      current_best: null,
      latest_score: null,
      best_score: null,
      score_trend: [],
      iterations: [{ round: 1, version: "v0", status: "executing" }],
    });
    const json = tuneJson(
      result({
        state: running,
        diffs: [
          { name: "a", diff: "diff a\n" },
          { name: "b", diff: "diff b\n" },
        ],
      }),
      undefined,
    );
    expect(json.iterations).toEqual([
      { version: "v0", status: "executing", score: null, grading_result: null },
    ]);
    expect(json.estimate).toBeNull();
    expect(json.applied).toBeNull();
    expect(json.diff).toBe("diff a\ndiff b\n");
  });
});
