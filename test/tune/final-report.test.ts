import { describe, expect, it } from "vitest";
import { renderFinalReport } from "../../src/tune/final-report.js";
import { iteration, measured, tuneState } from "./tune-states.js";

const TUNE = "/ws/tune-20260115-103000";
const DIFF = "--- a/greeter/SKILL.md\n+++ b/greeter/SKILL.md\n@@ -1 +1 @@\n-old\n+new\n\n";
const HEADER_NOTE = [
  "Score = 0.5 × expectation pass rate × 100 + 0.5 × rubric (clarity .20, completeness .25, correctness .25, effectiveness .20, efficiency .10).",
  "A version is kept only when it scores better than the best so far.",
];
const TABLE_HEAD = [
  "| iteration | version | score | pass rate | clarity | completeness | correctness | effectiveness | efficiency | result |",
  "|---|---|---|---|---|---|---|---|---|---|",
];

describe("final-report.md", () => {
  it("a finished single-skill tune: every section, a clipped note, an error row, at most 8 suggestions", () => {
    const state = tuneState({
      status: "completed",
      termination_reason: "max_iterations_reached",
      simulated: true,
      preset: "quick",
      evaluator: "sim",
      judge_model: "sim-judge",
      max_iterations: 4,
      quality_threshold: 70,
      error_count: 1,
      current_best: "v1",
      iterations: [
        iteration(1, {
          evaluation: { ...measured(30, 0.25, 35), weaknesses: ["w0"] },
          grading_result: "baseline",
          improvement: { target_skills: ["greeter"], from_version: "v0", changes_file: "c1" },
        }),
        iteration(2, {
          evaluation: {
            ...measured(62.5, 0.5, 75),
            dimensions: { clarity: 70, completeness: 71, correctness: 72, effectiveness: 73, efficiency: 74 },
            weaknesses: [],
            suggestions: Array.from({ length: 9 }, (_, i) => `[high] s${i + 1}`),
          },
          grading_result: "won",
          improvement: { from_version: "v1", rolled_back: true, error: "the improver changed nothing" },
        }),
        iteration(3, {
          parent: "v1",
          status: "failed",
          error: "execute: greeter: no run was graded",
          improvement: { target_skills: ["greeter"], rolled_back: true },
        }),
        iteration(4, { parent: "v1", status: "executing" }),
      ],
    });
    const notes = `- Added an example\n${"x".repeat(3_005)}`;
    const report = renderFinalReport({
      state,
      tuneDir: TUNE,
      changes: { 1: `\n${notes}\n`, 2: "", 3: "- Tried tips\n" },
      diffs: [
        { name: "other", diff: "" },
        { name: "greeter", diff: DIFF },
      ],
      bestDirs: { greeter: `${TUNE}/iterations/iteration-2/skill-snapshot/greeter`, other: "/x" },
    });
    expect(report).toBe(
      [
        "# Tune report: greeter",
        "",
        "**SIMULATED**: skillgym sim stood in for the model; these scores test the loop, not the skill.",
        "",
        "- Mode: single",
        "- Preset: quick: at most 4 iterations, threshold 70",
        "- Status: completed: the last iteration was run",
        "- Iterations: 4, errors: 1",
        "- Evaluator: sim (sim-judge)",
        "- Best version: v1, score 62.5/100 (first measured: v0, 30)",
        "",
        ...HEADER_NOTE,
        "",
        "## Score progression",
        "",
        ...TABLE_HEAD,
        "| 1 | v0 | 30 | 25% | 35 | 35 | 35 | 35 | 35 | baseline |",
        "| 2 | v1 | 62.5 | 50% | 70 | 71 | 72 | 73 | 74 | won |",
        "| 3 | v2 | — | — | — | — | — | — | — | error |",
        "| 4 | v3 | — | — | — | — | — | — | — | executing |",
        "",
        "## Changes per iteration",
        "",
        "### Iteration 1: edited greeter from v0 → v1",
        "",
        `${notes.slice(0, 3_000)}\n[… 24 more characters in the file]`,
        "",
        "Result: v1 won (score 62.5).",
        "",
        "### Iteration 2: edited the skill from v1 → v2",
        "",
        "Rolled back: the improver changed nothing.",
        "",
        "### Iteration 3: edited greeter from ? → v3",
        "",
        "Rolled back: the edit was not kept.",
        "",
        "- Tried tips",
        "",
        "## Diff from the original to the best version (v1)",
        "",
        "```diff",
        "--- a/greeter/SKILL.md\n+++ b/greeter/SKILL.md\n@@ -1 +1 @@\n-old\n+new",
        "```",
        "",
        "## Remaining weaknesses",
        "",
        "- (none named)",
        "",
        "Open suggestions:",
        "",
        ...Array.from({ length: 8 }, (_, i) => `- [high] s${i + 1}`),
        "",
        "## How to apply",
        "",
        "Your skill was not changed. To write the best version over it (refused if it changed since the tune began):",
        "",
        "```sh",
        `skillgym tune --resume ${TUNE} --apply`,
        "```",
        "",
        "or copy it by hand:",
        "",
        `- \`${TUNE}/iterations/iteration-2/skill-snapshot/greeter\` → \`/home/me/skills/greeter\``,
        "",
      ].join("\n"),
    );
  });

  it("keeps a note of exactly 3,000 characters whole", () => {
    const note = "y".repeat(3_000);
    const state = tuneState({
      iterations: [iteration(1, { improvement: { from_version: "v0" } })],
    });
    const report = renderFinalReport({ state, tuneDir: TUNE, changes: { 1: note }, diffs: [], bestDirs: {} });
    expect(report).toContain(`### Iteration 1: edited the skill from v0\n\n${note}\n\n## Diff`);
  });

  it("a running chain, nothing measured: per-skill table, no best, nothing to apply", () => {
    const state = tuneState({
      execution_mode: "chain",
      target_skills: ["outliner", "drafter"],
      chain_order: ["drafter", "outliner"],
      skill_paths: ["/s/outliner", "/s/drafter"],
      iterations: [iteration(1, { status: "executing" })],
    });
    const report = renderFinalReport({
      state,
      tuneDir: TUNE,
      changes: {},
      diffs: [{ name: "outliner", diff: "" }],
      bestDirs: {},
    });
    expect(report).toBe(
      [
        "# Tune report: outliner → drafter",
        "",
        "- Mode: chain (drafter → outliner)",
        "- Preset: custom: at most 5 iterations, threshold 80",
        `- Status: running (continue with \`skillgym tune --resume ${TUNE}\`)`,
        "- Iterations: 1, errors: 0",
        "- Best version: none measured",
        "",
        ...HEADER_NOTE,
        "",
        "## Score progression",
        "",
        ...TABLE_HEAD,
        "| 1 | v0 | — | — | — | — | — | — | — | executing |",
        "",
        "Per skill (composite scores):",
        "",
        "| iteration | outliner | drafter | improved |",
        "|---|---|---|---|",
        "| 1 | — | — | — |",
        "",
        "## Changes per iteration",
        "",
        "No edits were made.",
        "",
        "## Diff from the original to the best version",
        "",
        "The best version is the original: there is nothing to apply.",
        "",
        "## Remaining weaknesses",
        "",
        "- (nothing was measured)",
        "",
        "## How to apply",
        "",
        "Nothing to apply.\n",
      ].join("\n"),
    );
  });

  it("a measured chain: each skill's score and the skill improved; the first version is the best", () => {
    const state = tuneState({
      status: "completed",
      termination_reason: null,
      execution_mode: "chain",
      target_skills: ["outliner", "drafter"],
      skill_paths: ["/s/outliner", "/s/drafter"],
      evaluator: "gemini",
      current_best: "v0",
      iterations: [
        iteration(1, {
          evaluation: {
            ...measured(80, 1, 60),
            skill_scores: { outliner: 90, drafter: 70 },
            weaknesses: ["drafter: thin"],
          },
          grading_result: "baseline",
          improvement: { target_skills: ["drafter"], from_version: "v0" },
        }),
        iteration(2, { evaluation: measured(70, 1, 40), grading_result: "lost" }),
      ],
    });
    const report = renderFinalReport({
      state,
      tuneDir: TUNE,
      changes: {},
      diffs: [{ name: "drafter", diff: "+x\n" }],
      bestDirs: { drafter: "/best/drafter" },
    });
    expect(report).toContain("- Mode: chain (outliner → drafter)\n");
    expect(report).toContain(`- Status: completed (continue with \`skillgym tune --resume ${TUNE}\`)\n`);
    expect(report).toContain("- Evaluator: gemini\n- Best version: v0, score 80/100\n\n");
    expect(report).toContain(
      [
        "| iteration | outliner | drafter | improved |",
        "|---|---|---|---|",
        "| 1 | 90 | 70 | drafter |",
        "| 2 | — | — | — |",
        "",
      ].join("\n"),
    );
    expect(report).toContain(
      "### Iteration 1: edited drafter from v0 → v1\n\nResult: v1 lost (score 70).\n\n## Diff from the original to the best version (v0)",
    );
    expect(report).toContain("## Remaining weaknesses\n\n- drafter: thin\n\n## How to apply");
    expect(report).toContain("- `/best/drafter` → `/s/drafter`\n");
  });

  it("a tune set running again by hand is shown as resumable; both skills of a chain edited at once; a row not yet judged", () => {
    const state = tuneState({
      status: "running",
      termination_reason: "max_iterations_reached",
      execution_mode: "chain",
      target_skills: ["outliner", "drafter"],
      skill_paths: ["/s/outliner", "/s/drafter"],
      iterations: [
        iteration(1, {
          evaluation: { ...measured(80, 1, 60), skill_scores: { outliner: 90, drafter: 70 } },
          improvement: { target_skills: ["outliner", "drafter"], from_version: "v0" },
        }),
      ],
    });
    const report = renderFinalReport({ state, tuneDir: TUNE, changes: {}, diffs: [], bestDirs: {} });
    expect(report).toContain(`- Status: running (continue with \`skillgym tune --resume ${TUNE}\`)\n`);
    expect(report).toContain("| 1 | v0 | 80 | 100% | 60 | 60 | 60 | 60 | 60 |  |\n");
    expect(report).toContain("| 1 | 90 | 70 | outliner, drafter |\n");
    expect(report).toContain("### Iteration 1: edited outliner, drafter from v0\n");
  });
});
