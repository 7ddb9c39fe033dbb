import { join } from "node:path";
import type { z } from "zod";
import type { History } from "../../src/contracts/history.js";
import { IterationState } from "../../src/contracts/iteration-state.js";
import { writeFiles } from "./workspace-fixture.js";

const at = "2026-01-02T03:04:05.000Z";

function round(
  n: number,
  version: string,
  score: number,
  passRate: number,
  result: "baseline" | "won" | "lost",
) {
  return {
    round: n,
    version,
    parent: n === 1 ? null : "v0",
    status: "completed" as const,
    execution: { runs: 4, errored_runs: 0 },
    evaluation: {
      score,
      dimensions: {
        clarity: score - 2,
        completeness: score + 1,
        correctness: score + 3,
        effectiveness: score - 4,
        efficiency: score + 2,
      },
      expectation_pass_rate: passRate,
      suggestions: ["[high] say when to stop"],
    },
    improvement: null,
    grading_result: result,
  };
}

/** A completed three-round tune of "release-notes": v1 won, v2 lost, v1 is the best. */
export const tuneState: z.input<typeof IterationState> = {
  target_skills: ["release-notes"],
  execution_mode: "single",
  current_iteration: 3,
  max_iterations: 3,
  quality_threshold: 70,
  latest_score: 64.5,
  best_score: 78.25,
  current_best: "v1",
  score_trend: [52.5, 78.25, 64.5],
  converged: false,
  error_count: 0,
  max_errors: 3,
  consecutive_errors: 0,
  status: "completed",
  termination_reason: "quality_threshold_met",
  started_at: at,
  updated_at: at,
  iterations: [
    round(1, "v0", 52.5, 0.5, "baseline"),
    round(2, "v1", 78.25, 0.75, "won"),
    round(3, "v2", 64.5, 0.625, "lost"),
  ],
};

export const tuneHistory: History = {
  started_at: at,
  skill_name: "release-notes",
  current_best: "v1",
  iterations: [
    {
      version: "v0",
      parent: null,
      expectation_pass_rate: 0.5,
      grading_result: "baseline",
      is_current_best: false,
      score: 52.5,
    },
    {
      version: "v1",
      parent: "v0",
      expectation_pass_rate: 0.75,
      grading_result: "won",
      is_current_best: true,
      score: 78.25,
    },
    {
      version: "v2",
      parent: "v1",
      expectation_pass_rate: 0.625,
      grading_result: "lost",
      is_current_best: false,
      score: 64.5,
    },
  ],
};

export const finalReport = "# Tune report\n\nBest: v1 (78.25) <script>alert(1)</script>\n";

/** Writes `<workspace>/<name>/` as `skillgym tune` would leave it; throws if the literals stop matching the schema. */
export async function writeTuneFolder(workspace: string, name: string): Promise<string> {
  IterationState.parse(tuneState);
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeFiles(join(workspace, name), {
    "iteration-state.json": json(tuneState),
    "history.json": json(tuneHistory),
    "final-report.md": finalReport,
  });
  return join(workspace, name);
}
