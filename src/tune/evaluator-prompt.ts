import { judgeMarkers } from "../contracts/judge-markers.js";
import { clipHead } from "../judge/grader-prompt.js";

export interface TextFile {
  path: string;
  content: string;
}

export interface EvaluatedEval {
  name: string;
  prompt: string;
  passRate: number | undefined;
  failed: { text: string; evidence: string }[];
  outputs: TextFile[];
}

export interface EvaluatorInput {
  skillName: string;
  skillFiles: TextFile[];
  passRate: number;
  evals: EvaluatedEval[];
  scenario?: string;
  /** Composite scores of the versions measured before, oldest first. */
  previousScores: number[];
  chain?: { position: number; total: number; upstream?: string; downstream?: string };
}

// Kept well under a command line's limit, since the claude-code judge takes its prompt as an argument.
export const evaluatorPromptLimits = { skillChars: 12_000, outputChars: 10_000, perFileChars: 4_000 };

const SYSTEM = `You are the evaluator of skillgym's tune loop, which improves an Agent Skill (a folder with SKILL.md) by
running it through a real coding agent on an eval suite, scoring the result, and having the skill edited.
You see the skill's files, the outputs of the runs, and the expectations each run failed, with evidence.
Score the SKILL (its instructions), not the agent, on five dimensions from 0 to 100:
- clarity: are the instructions unambiguous and easy to follow?
- completeness: do they cover what the tasks need, edge cases included?
- correctness: do they lead to correct outputs (the failed expectations are evidence)?
- effectiveness: do the outputs achieve what the tasks asked for?
- efficiency: do they get there without wasted steps, tokens or files?
Then name strengths and weaknesses, and give concrete, prioritized suggestions: edits to the skill's files that
would make failed expectations pass. Never suggest editing the eval suite.
Answer with one JSON object and nothing else:
{"dimensions": {"clarity": 0-100, "completeness": 0-100, "correctness": 0-100, "effectiveness": 0-100, "efficiency": 0-100},
 "strengths": ["…"], "weaknesses": ["…"], "suggestions": [{"priority": "high" | "medium" | "low", "text": "…"}]}`;

function filesSection(files: TextFile[], total: number, perFile: number): string {
  const parts: string[] = [];
  let budget = total;
  const skipped: string[] = [];
  for (const file of files) {
    if (budget <= 0) {
      skipped.push(file.path);
      continue;
    }
    const limit = Math.min(perFile, budget);
    budget -= Math.min(file.content.length, limit);
    parts.push(`<file path=${JSON.stringify(file.path)}>\n${clipHead(file.content, limit)}\n</file>`);
  }
  if (parts.length === 0) parts.push("(none)");
  if (skipped.length > 0) parts.push(`Not shown (the prompt's budget ran out): ${skipped.join(", ")}`);
  return parts.join("\n");
}

const pct = (rate: number | undefined) => (rate === undefined ? "not graded" : `${Math.round(rate * 100)}%`);

function evalSection(e: EvaluatedEval, outputChars: number, perFile: number): string {
  const failed =
    e.failed.length === 0
      ? "Failed expectations: none"
      : `Failed expectations:\n${e.failed.map((f) => `- ${f.text}\n  evidence: ${clipHead(f.evidence, 400)}`).join("\n")}`;
  return [
    `<eval name=${JSON.stringify(e.name)} pass_rate="${pct(e.passRate)}">`,
    `Task given to the agent:\n${clipHead(e.prompt, 2_000)}`,
    failed,
    `Outputs of the run:\n${filesSection(e.outputs, outputChars, perFile)}`,
    "</eval>",
  ].join("\n");
}

/** The evaluator's prompt; its marker lets skillgym sim answer it with a scripted rubric. */
export function buildEvaluatorPrompt(input: EvaluatorInput): { system: string; prompt: string } {
  const limits = evaluatorPromptLimits;
  const perEval = Math.floor(limits.outputChars / Math.max(1, input.evals.length));
  const lines = [judgeMarkers.evaluator, `Skill under evaluation: ${input.skillName}`];
  if (input.chain) {
    const neighbours = [
      input.chain.upstream ? `it reads what "${input.chain.upstream}" produced` : undefined,
      input.chain.downstream ? `"${input.chain.downstream}" reads what it produces` : undefined,
    ].filter(Boolean);
    lines.push(
      `It is step ${input.chain.position} of ${input.chain.total} of a skill chain${neighbours.length ? `: ${neighbours.join("; ")}` : ""}.`,
    );
  }
  if (input.scenario) lines.push(`Intended use (test scenario): ${input.scenario}`);
  lines.push(
    `Expectation pass rate over the runs: ${pct(input.passRate)}`,
    input.previousScores.length > 0
      ? `Composite scores of earlier versions (0–100, oldest first): ${input.previousScores.join(", ")}`
      : "This is the first version measured.",
    "",
    "<skill-files>",
    filesSection(input.skillFiles, limits.skillChars, limits.skillChars),
    "</skill-files>",
    "",
    "<runs>",
    ...input.evals.map((e) => evalSection(e, perEval, limits.perFileChars)),
    "</runs>",
    "",
    "Answer with the JSON object described in your instructions.",
  );
  return { system: SYSTEM, prompt: lines.join("\n") };
}
