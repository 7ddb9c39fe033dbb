import { expectationsBlock, judgeMarkers } from "../contracts/judge-markers.js";

/** One file of the run's outputs/: text files carry their content, binary ones only their name and size. */
export interface GraderOutputFile {
  path: string;
  content?: string;
  binary?: boolean;
  bytes?: number;
}

export interface GraderInput {
  /** The eval's task, as the executor got it. */
  prompt: string;
  expectedOutput?: string;
  expectations: string[];
  outputs: GraderOutputFile[];
  /** The run's transcript.md. */
  transcript: string;
  /** A short summary of metrics.json (tool calls, errors, duration), as text or as the object itself. */
  metrics?: string | Record<string, unknown>;
}

export interface GraderPromptOptions {
  perFileChars?: number;
  totalOutputChars?: number;
  transcriptChars?: number;
  /** The judge can read the run's files itself (Claude Code): where they are, relative to its working folder. */
  filesOnDisk?: { outputsDir: string; transcriptFile: string };
}

export const graderPromptLimits = {
  perFileChars: 20_000,
  totalOutputChars: 100_000,
  transcriptChars: 30_000,
};

export function clipHead(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[… ${text.length - max} more characters clipped by skillgym …]`;
}

export function clipTail(text: string, max: number): string {
  if (text.length <= max) return text;
  return `[… the first ${text.length - max} characters clipped by skillgym …]\n${text.slice(-max)}`;
}

const SYSTEM = `You are the grader of skillgym, a harness that tests Agent Skills by running an AI agent (the executor) on a task.
You have two jobs: grade one run against its expectations, and critique the expectations themselves.
You judge from evidence in the run's output files and transcript, never from what the executor says it did.
A passing grade on a weak assertion is worse than useless: it creates false confidence.
You answer with one JSON object and nothing else.`;

function outputsSection(
  outputs: GraderOutputFile[],
  options: Required<Omit<GraderPromptOptions, "filesOnDisk">>,
) {
  const text = outputs.filter((o) => !o.binary && o.content !== undefined);
  const binary = outputs.filter((o) => o.binary || o.content === undefined);
  const parts: string[] = [];
  const skipped: string[] = [];
  let budget = options.totalOutputChars;
  for (const file of text) {
    // Stryker disable next-line StringLiteral: equivalent, text holds only files with content (filtered above)
    const content = file.content ?? "";
    if (budget <= 0) {
      skipped.push(`${file.path} (${content.length} characters)`);
      continue;
    }
    const clipped = clipHead(content, Math.min(options.perFileChars, budget));
    budget -= Math.min(content.length, options.perFileChars);
    parts.push(
      `<file path=${JSON.stringify(file.path)} characters="${content.length}">\n${clipped}\n</file>`,
    );
  }
  if (parts.length === 0) parts.push("(no text files)");
  if (skipped.length > 0) parts.push(`Not shown (the prompt's budget ran out): ${skipped.join(", ")}`);
  if (binary.length > 0) {
    const names = binary.map((b) => (b.bytes !== undefined ? `${b.path} (${b.bytes} bytes)` : b.path));
    parts.push(`Binary files, not shown: ${names.join(", ")}`);
  }
  return parts.join("\n\n");
}

function metricsText(metrics: GraderInput["metrics"]): string {
  if (metrics === undefined) return "(none recorded)";
  return typeof metrics === "string" ? metrics : JSON.stringify(metrics);
}

const METHOD = `## How to grade

1. Read the transcript: the task, the steps the executor took, errors, and its final answer.
2. Examine the output files that bear on the expectations. Do not rely on the transcript's account of what was produced: check the files.
3. For each expectation, search for evidence and decide:
   - PASS only when the files or the transcript clearly show the expectation is true AND the evidence reflects genuine completion of the task. Quote the evidence (a short exact excerpt, and where it is: file name or transcript step).
   - FAIL when there is no evidence, when the evidence contradicts it, when it cannot be verified from what you have, or when the match is superficial (the right file name with empty or wrong content, a heading with nothing under it, a claim in the final answer that the files do not bear out, a result reached by coincidence rather than by doing the work).
   - The burden of proof is on PASS: when in doubt, or with no evidence, the expectation FAILS. No partial credit.
4. Extract the claims the run's final answer and outputs make, and verify each against the files and the transcript:
   factual claims ("the form has 12 fields"), process claims ("used the skill's script"), quality claims ("all fields are correct").
   A claim you cannot confirm is not verified.
5. Summarize the executor's own notes: what it said it was unsure of (uncertainties), what it says needs a human's review (needs_review), and where it worked around something that did not work as expected (workarounds), from its final answer, the transcript, or a notes file such as user_notes.md among the outputs.
6. Critique the evals in eval_feedback, only where there is a clear gap: flag weak assertions (ones a clearly wrong output would also pass, such as checking that a file exists but not what it holds, or ones that only prove the skill ran without crashing), assertions that cannot be verified from the outputs, and important outcomes, good or bad, that no assertion covers. Leave eval_feedback out when nothing is worth raising.`;

const ANSWER = `## Your answer

Answer with ONE JSON object only: no prose before or after it, no code fence. Its shape:
{
  "expectations": [{ "text": "<the expectation, verbatim>", "passed": true, "evidence": "<quoted evidence, or why it fails>" }],
  "claims": [{ "claim": "...", "type": "factual" | "process" | "quality", "verified": false, "evidence": "..." }],
  "user_notes_summary": { "uncertainties": ["..."], "needs_review": ["..."], "workarounds": ["..."] },
  "eval_feedback": { "suggestions": [{ "assertion": "<an expectation, if the suggestion is about one>", "reason": "..." }], "overall": "..." }
}
"expectations" holds exactly one entry per expectation listed above, in the same order, with the same text. "passed" is a JSON boolean.`;

/** The seed grader's method as one prompt; the marker and the expectations block let skillgym sim answer it. */
export function buildGraderPrompt(
  input: GraderInput,
  options: GraderPromptOptions = {},
): { system: string; prompt: string } {
  const limits = {
    perFileChars: options.perFileChars ?? graderPromptLimits.perFileChars,
    totalOutputChars: options.totalOutputChars ?? graderPromptLimits.totalOutputChars,
    transcriptChars: options.transcriptChars ?? graderPromptLimits.transcriptChars,
  };
  const onDisk = options.filesOnDisk;
  const sections = [
    `${judgeMarkers.grader}\nGrade one run of an AI agent against its expectations.`,
    `## The task the executor was given\n\n<task>\n${input.prompt}\n</task>`,
  ];
  if (input.expectedOutput)
    sections.push(
      `## What a good result looks like\n\n<expected_output>\n${input.expectedOutput}\n</expected_output>`,
    );
  sections.push(
    `## The expectations to grade, in this order (a JSON array)\n\n${expectationsBlock(input.expectations)}`,
  );
  if (onDisk) {
    sections.push(
      `## Where the run's files are\n\nYour working folder holds the run: \`${onDisk.outputsDir}/\` (the files the executor created or changed) and \`${onDisk.transcriptFile}\` (its transcript). Read them with Read, Glob and Grep before you grade; change nothing. Excerpts follow; they may be clipped, the files are complete.`,
    );
  }
  sections.push(`## The run's output files\n\n${outputsSection(input.outputs, limits)}`);
  sections.push(`## Run metrics\n\n${metricsText(input.metrics)}`);
  sections.push(
    `## The transcript${input.transcript.length > limits.transcriptChars ? " (its end)" : ""}\n\n<transcript>\n${clipTail(input.transcript, limits.transcriptChars)}\n</transcript>`,
  );
  sections.push(METHOD, ANSWER);
  return { system: SYSTEM, prompt: sections.join("\n\n") };
}
