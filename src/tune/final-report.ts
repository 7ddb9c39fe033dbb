import { tuneExitText } from "../contracts/exit-reasons.js";
import { type IterationState, rubricDimensions, targetSkillsOf } from "../contracts/iteration-state.js";
import { bestIteration } from "./progress.js";

export interface FinalReportInput {
  state: IterationState;
  tuneDir: string;
  /** Each iteration's changes file, by round. */
  changes: Record<number, string>;
  diffs: { name: string; diff: string }[];
  /** Absolute folders of the best version, by skill name. */
  bestDirs: Record<string, string>;
}

const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max)}\n[… ${text.length - max} more characters in the file]`;
const pct = (rate: number) => `${Math.round(rate * 100)}%`;

function progression(state: IterationState): string[] {
  const head = ["iteration", "version", "score", "pass rate", ...rubricDimensions, "result"];
  const rows = state.iterations.map((it) => {
    const e = it.evaluation;
    if (!e)
      return [
        `${it.round}`,
        it.version,
        "—",
        "—",
        ...rubricDimensions.map(() => "—"),
        it.error ? "error" : it.status,
      ];
    return [
      `${it.round}`,
      it.version,
      `${e.score}`,
      pct(e.expectation_pass_rate),
      ...rubricDimensions.map((d) => `${e.dimensions[d]}`),
      it.grading_result ?? "",
    ];
  });
  const lines = [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ];
  if (state.execution_mode === "chain") {
    const names = targetSkillsOf(state);
    lines.push(
      "",
      "Per skill (composite scores):",
      "",
      `| iteration | ${names.join(" | ")} | improved |`,
      `|---|${names.map(() => "---").join("|")}|---|`,
      ...state.iterations.map(
        (it) =>
          `| ${it.round} | ${names.map((n) => `${it.evaluation?.skill_scores?.[n] ?? "—"}`).join(" | ")} | ${it.improvement?.target_skills?.join(", ") ?? "—"} |`,
      ),
    );
  }
  return lines;
}

function changesSection(input: FinalReportInput): string[] {
  const lines: string[] = [];
  for (const it of input.state.iterations) {
    const imp = it.improvement;
    if (!imp) continue;
    const next = input.state.iterations[it.round];
    const label = next ? ` → ${next.version}` : "";
    lines.push(
      `### Iteration ${it.round}: edited ${imp.target_skills?.join(", ") ?? "the skill"} from ${imp.from_version ?? "?"}${label}`,
      "",
    );
    if (imp.rolled_back) lines.push(`Rolled back: ${imp.error ?? "the edit was not kept"}.`, "");
    const notes = input.changes[it.round];
    if (notes) lines.push(clip(notes.trim(), 3_000), "");
    if (next?.grading_result)
      lines.push(`Result: ${next.version} ${next.grading_result} (score ${next.evaluation?.score}).`, "");
  }
  return lines.length > 0 ? lines : ["No edits were made.", ""];
}

/** final-report.md: how the scores moved, what changed, the diff to the best version, what is left, how to apply. */
export function renderFinalReport(input: FinalReportInput): string {
  const { state } = input;
  const names = targetSkillsOf(state);
  const best = bestIteration(state);
  const first = state.iterations.find((it) => it.evaluation);
  const lines = [`# Tune report: ${names.join(" → ")}`, ""];
  if (state.simulated)
    lines.push(
      "**SIMULATED**: skillgym sim stood in for the model; these scores test the loop, not the skill.",
      "",
    );
  const status =
    state.status === "completed" && state.termination_reason
      ? `completed: ${tuneExitText[state.termination_reason]}`
      : `${state.status} (continue with \`skillgym tune --resume ${input.tuneDir}\`)`;
  lines.push(
    `- Mode: ${state.execution_mode}${state.execution_mode === "chain" ? ` (${(state.chain_order ?? names).join(" → ")})` : ""}`,
    `- Preset: ${state.preset ?? "custom"}: at most ${state.max_iterations} iterations, threshold ${state.quality_threshold}`,
    `- Status: ${status}`,
    `- Iterations: ${state.iterations.length}, errors: ${state.error_count}`,
    ...(state.evaluator
      ? [`- Evaluator: ${state.evaluator}${state.judge_model ? ` (${state.judge_model})` : ""}`]
      : []),
    best?.evaluation
      ? `- Best version: ${best.version}, score ${best.evaluation.score}/100${first?.evaluation && first !== best ? ` (first measured: ${first.version}, ${first.evaluation.score})` : ""}`
      : "- Best version: none measured",
    "",
    "Score = 0.5 × expectation pass rate × 100 + 0.5 × rubric (clarity .20, completeness .25, correctness .25, effectiveness .20, efficiency .10).",
    "A version is kept only when it scores better than the best so far.",
    "",
    "## Score progression",
    "",
    ...progression(state),
    "",
    "## Changes per iteration",
    "",
    ...changesSection(input),
  );
  const changed = input.diffs.filter((d) => d.diff !== "");
  lines.push(`## Diff from the original to the best version${best ? ` (${best.version})` : ""}`, "");
  if (changed.length === 0) lines.push("The best version is the original: there is nothing to apply.", "");
  else lines.push("```diff", ...changed.map((d) => d.diff.trimEnd()), "```", "");
  const e = best?.evaluation;
  lines.push("## Remaining weaknesses", "");
  if (e) {
    lines.push(...(e.weaknesses?.length ? e.weaknesses.map((w) => `- ${w}`) : ["- (none named)"]), "");
    if (e.suggestions.length > 0)
      lines.push("Open suggestions:", "", ...e.suggestions.slice(0, 8).map((s) => `- ${s}`), "");
  } else lines.push("- (nothing was measured)", "");
  lines.push("## How to apply", "");
  if (changed.length === 0) lines.push("Nothing to apply.");
  else {
    lines.push(
      "Your skill was not changed. To write the best version over it (refused if it changed since the tune began):",
      "",
      "```sh",
      `skillgym tune --resume ${input.tuneDir} --apply`,
      "```",
      "",
      "or copy it by hand:",
      "",
      ...changed.map(
        (d) =>
          `- \`${input.bestDirs[d.name]}\` → \`${state.skill_paths?.[names.indexOf(d.name)] ?? d.name}\``,
      ),
    );
  }
  return `${lines.join("\n")}\n`;
}
