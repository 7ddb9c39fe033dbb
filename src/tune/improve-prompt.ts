import type { DimensionScores } from "../contracts/iteration-state.js";
import type { FailedExpectation } from "./measure-runs.js";

export interface ImprovePromptInput {
  skillName: string;
  round: number;
  version: string;
  score: number;
  passRate: number;
  dimensions: DimensionScores;
  suggestions: string[];
  strengths: string[];
  weaknesses: string[];
  failed: FailedExpectation[];
  /** Edits tried from this same version that did not score better, most recent last. */
  rejected: { version: string; score: number; changes: string }[];
  chain?: { upstream?: string; downstream?: string; reads: string[]; writes: string[] };
  changesFile: string;
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)} […]`);

function list(items: string[], empty: string): string {
  return items.length === 0 ? empty : items.map((item) => `- ${item}`).join("\n");
}

/** What the improver agent is asked: edit the copy of the skill in ./<name>/ from the evaluation, and say what changed. */
export function buildImprovePrompt(input: ImprovePromptInput): string {
  const d = input.dimensions;
  const lines = [
    `skillgym tune iteration ${input.round}: improve the Agent Skill in ./${input.skillName}/ (version ${input.version}).`,
    "",
    `It was run on its eval suite by a coding agent and evaluated: composite score ${input.score}/100, expectation pass rate ${Math.round(input.passRate * 100)}%,`,
    `rubric clarity ${d.clarity}, completeness ${d.completeness}, correctness ${d.correctness}, effectiveness ${d.effectiveness}, efficiency ${d.efficiency}.`,
    "",
    "Suggestions, most important first:",
    list(input.suggestions, "- (none given: address the weaknesses and failed expectations)"),
    "",
    "Weaknesses:",
    list(input.weaknesses, "- (none named)"),
    "",
    "Expectations the runs failed:",
    list(
      input.failed.map((f) => `${f.text} (evidence: ${clip(f.evidence, 300)})`),
      "- (none)",
    ),
    "",
    "Strengths to keep:",
    list(input.strengths, "- (none named)"),
  ];
  if (input.rejected.length > 0) {
    lines.push(
      "",
      "Edits already tried from this version that scored lower or no better; try something different:",
      ...input.rejected.map(
        (r) => `- ${r.version} (score ${r.score}): ${clip(r.changes.replace(/\s+/g, " "), 500)}`,
      ),
    );
  }
  if (input.chain) {
    const c = input.chain;
    lines.push(
      "",
      "This skill is one step of a chain; keep its interface with its neighbours unchanged:",
      ...(c.upstream
        ? [`- it reads what "${c.upstream}" produces: ${c.reads.join(", ") || "(its outputs)"}`]
        : []),
      ...(c.downstream
        ? [`- "${c.downstream}" reads what it writes: ${c.writes.join(", ") || "(its outputs)"}`]
        : []),
    );
  }
  lines.push(
    "",
    "Rules:",
    `- Edit only files inside ./${input.skillName}/. Keep \`name: ${input.skillName}\` in the SKILL.md frontmatter; the description stays under 1024 characters, without < or >.`,
    "- Make focused edits that address the suggestions; keep what already works.",
    `- When done, write ./${input.changesFile}: a short markdown list of what you changed and why.`,
  );
  return lines.join("\n");
}
