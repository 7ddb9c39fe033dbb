import { Comparison, type Side } from "../contracts/comparison.js";
import { judgeMarkers } from "../contracts/judge-markers.js";
import { SkillgymError } from "../errors.js";
import type { Judge } from "../judge/judge.js";
import { assignLabels, blindText, type LabelAssignment, type Rng } from "./blind.js";
import { askForJson } from "./judge-json.js";
import { normalizeComparison } from "./normalize.js";
import { presentOutputs, presentTask } from "./present.js";
import type { RunSnapshot } from "./read-run.js";

export interface CompareRunsOptions {
  judge: Judge;
  /** The first run as given; which blind label it gets is decided by `rng`. */
  runA: RunSnapshot;
  /** The second run as given. */
  runB: RunSnapshot;
  rng?: Rng;
  signal?: AbortSignal;
}

export interface ComparisonResult {
  /** The judge's verdict, with the labels as the judge saw them. */
  comparison: Comparison;
  /** The run folder behind each blind label; never shown to the comparator. */
  mapping: { A: string; B: string };
  labels: LabelAssignment;
  /** The winning run's folder, null for a tie. */
  winnerRunDir: string | null;
  /** The eval's prompt and expectations the runs were compared on. */
  task: { prompt: string; expectations: string[] };
  costUsd: number;
  model: string;
  simulated: boolean;
}

const SYSTEM = [
  "You are a blind comparator. Two outputs produced for the same task are labelled Output A and Output B.",
  "You are not told how either output was produced and must not guess; judge only what is in front of you.",
  "Be specific and fair; the order in which the outputs are shown means nothing.",
  "Answer with exactly one JSON object and nothing else.",
].join(" ");

export async function compareRuns(options: CompareRunsOptions): Promise<ComparisonResult> {
  const { judge, runA, runB } = options;
  const task = taskOf(runA, runB);
  const labels = assignLabels(options.rng);
  const runFor = (side: Side) => (labels[side] === "first" ? runA : runB);
  const hide = (text: string) => blindText(text, [runA.runDir, runB.runDir]);
  const prompt = comparatorPrompt(
    task,
    presentOutputs(runFor("A"), "## Output A", { transform: hide }),
    presentOutputs(runFor("B"), "## Output B", { transform: hide }),
  );
  const answer = await askForJson({
    judge,
    role: "comparator",
    schema: Comparison,
    request: {
      system: SYSTEM,
      prompt,
      maxTokens: 4096,
      ...(options.signal ? { signal: options.signal } : {}),
    },
    normalize: (data) => normalizeComparison(data, task.expectations.length > 0),
  });
  const comparison = answer.value;
  const mapping = { A: runFor("A").runDir, B: runFor("B").runDir };
  return {
    comparison,
    mapping,
    labels,
    winnerRunDir: comparison.winner === "TIE" ? null : mapping[comparison.winner],
    task,
    costUsd: answer.costUsd,
    model: answer.model,
    simulated: answer.simulated,
  };
}

function taskOf(first: RunSnapshot, second: RunSnapshot): { prompt: string; expectations: string[] } {
  if (
    first.prompt !== undefined &&
    second.prompt !== undefined &&
    first.prompt.trim() !== second.prompt.trim()
  ) {
    throw new SkillgymError(
      "BAD_INPUT",
      `${first.runDir} and ${second.runDir} answer different prompts, so their outputs cannot be compared`,
      { hint: "compare two runs of the same eval (the same eval-<id> folder, in any iteration)" },
    );
  }
  const prompt = first.prompt ?? second.prompt;
  if (prompt === undefined) {
    throw new SkillgymError(
      "BAD_INPUT",
      `neither ${first.runDir} nor ${second.runDir} says what the task was (no eval_metadata.json, no prompt in transcript.md)`,
      { hint: "compare run folders written by `skillgym eval`, which keep eval_metadata.json beside them" },
    );
  }
  const expectations = first.metadata?.assertions ?? second.metadata?.assertions ?? [];
  return { prompt, expectations };
}

function comparatorPrompt(
  task: { prompt: string; expectations: string[] },
  outputA: string,
  outputB: string,
): string {
  const hasExpectations = task.expectations.length > 0;
  return [
    judgeMarkers.comparator,
    "",
    presentTask(task.prompt, task.expectations),
    outputA,
    outputB,
    "## How to judge",
    "",
    "1. Read the task and both outputs, files included. Decide what a good answer to this task needs.",
    "2. Score each output from 1 (poor) to 5 (excellent) on content — correctness, completeness, accuracy — and on",
    "   structure — organization, formatting, usability. Rename or add criteria if the task calls for it.",
    "3. content_score is the mean of the content scores and structure_score the mean of the structure scores, to one",
    "   decimal; overall_score = content_score + structure_score (0 to 10).",
    "4. output_quality: for each output a score from 1 to 10 and its concrete strengths and weaknesses.",
    ...(hasExpectations
      ? [
          "5. expectation_results: for each output, every expectation above in order, whether the output meets it",
          "   (`passed`) with short evidence; `passed`, `total` and `pass_rate` count them. The expectations matter,",
          "   but overall quality decides the winner.",
        ]
      : []),
    `${hasExpectations ? 6 : 5}. winner: "A" or "B" for the output that accomplishes the task better; "TIE" only when`,
    "   they are genuinely equivalent. reasoning: a few sentences naming the specific differences that decided it.",
    "",
    "## Answer",
    "",
    "One JSON object of this shape (numbers are examples):",
    "",
    "```json",
    JSON.stringify(answerShape(hasExpectations), null, 2),
    "```",
  ].join("\n");
}

function answerShape(hasExpectations: boolean): object {
  const side = (score: number) => ({
    content: { correctness: score, completeness: score, accuracy: score },
    structure: { organization: score, formatting: score, usability: score },
    content_score: score,
    structure_score: score,
    overall_score: score * 2,
  });
  const quality = { score: 7, strengths: ["…"], weaknesses: ["…"] };
  const expectations = {
    passed: 1,
    total: 2,
    pass_rate: 0.5,
    details: [{ text: "…", passed: true, evidence: "…" }],
  };
  return {
    winner: "A | B | TIE",
    reasoning: "…",
    rubric: { A: side(4), B: side(4) },
    output_quality: { A: quality, B: quality },
    ...(hasExpectations ? { expectation_results: { A: expectations, B: expectations } } : {}),
  };
}
