import { type JudgeKind, judgeKindOf, readExpectationsBlock, readTag } from "../contracts/judge-markers.js";
import type { SimJudge } from "../contracts/sim-script.js";
import { describerAnswer } from "./describer-answer.js";
import { drafterAnswer } from "./drafter-answer.js";
import { evaluatorAnswer } from "./evaluator-answer.js";

const DEFAULT_EVIDENCE = "Simulated verdict (skillgym sim)";

interface Verdict {
  text: string;
  passed: boolean;
  evidence: string;
}

/** Who asks, and how often the same prompt was asked before: what `judge_model` and `flips` rules look at. */
export interface JudgeAsk {
  model?: string;
  /** 0 the first time this judge model sends this prompt, 1 the second, … */
  previousAsks?: number;
}

function scriptedVerdict(
  text: string,
  judge: SimJudge | undefined,
  prompt: string,
  ask: JudgeAsk = {},
): Verdict | undefined {
  const rule = judge?.verdicts?.find(
    (v) =>
      new RegExp(v.match, "i").test(text) &&
      (v.when === undefined || new RegExp(v.when, "i").test(prompt)) &&
      (v.judge_model === undefined || new RegExp(v.judge_model, "i").test(ask.model ?? "")),
  );
  if (!rule) return undefined;
  const flipped = rule.flips === true && (ask.previousAsks ?? 0) % 2 === 1;
  return { text, passed: flipped ? !rule.passed : rule.passed, evidence: rule.evidence ?? DEFAULT_EVIDENCE };
}

export function simulatedVerdict(
  text: string,
  judge: SimJudge | undefined,
  prompt = "",
  ask: JudgeAsk = {},
): Verdict {
  return (
    scriptedVerdict(text, judge, prompt, ask) ?? {
      text,
      passed: (judge?.default ?? "pass") === "pass",
      evidence: DEFAULT_EVIDENCE,
    }
  );
}

// File names such as summary.md or reports/out.csv; two characters before the dot keep "e.g." out.
const FILE_NAME = /(?:[\w-]+\/)*[\w-]{2,}\.[a-z][a-z0-9]{0,5}\b/gi;

/** A file the expectation names that the grader prompt's list of the run's output files lacks, if any. */
export function missingOutputFile(expectation: string, evidence: string): string | undefined {
  const at = evidence.indexOf("## The run's output files");
  if (at < 0) return undefined;
  const end = evidence.indexOf("## Run metrics", at);
  const outputs = evidence.slice(at, end === -1 ? undefined : end);
  return (expectation.match(FILE_NAME) ?? []).find(
    (name) => !outputs.includes(name.split("/").pop() ?? name),
  );
}

// A script without a judge section leaves the sim to decide from evidence it can check: a named output file.
function graderVerdict(text: string, judge: SimJudge | undefined, evidence: string, ask: JudgeAsk): Verdict {
  const scripted = scriptedVerdict(text, judge, evidence, ask);
  if (scripted) return scripted;
  const missing = judge === undefined ? missingOutputFile(text, evidence) : undefined;
  if (missing)
    return {
      text,
      passed: false,
      evidence: `${DEFAULT_EVIDENCE}: ${missing} is not among the run's output files`,
    };
  return simulatedVerdict(text, judge, evidence, ask);
}

function graderAnswer(text: string, judge: SimJudge | undefined, ask: JudgeAsk): object {
  // `when` looks at the run's evidence only: what follows the expectations (outputs, metrics, transcript). A text
  // without the closing tag has no expectations to grade, so what it slices then is never looked at.
  const evidence = text.slice(text.indexOf("</expectations>"));
  const expectations = (readExpectationsBlock(text) ?? []).map((e) => graderVerdict(e, judge, evidence, ask));
  return {
    expectations,
    claims: [],
    user_notes_summary: { uncertainties: [], needs_review: [], workarounds: [] },
  };
}

function sideScores(level: "win" | "lose" | "tie") {
  const n = level === "win" ? 5 : level === "lose" ? 3 : 4;
  return {
    rubric: {
      content: { correctness: n, completeness: n, accuracy: n },
      structure: { organization: n, formatting: n, usability: n },
      content_score: n,
      structure_score: n,
      overall_score: n * 2,
    },
    quality: {
      score: n * 2,
      strengths: [`Simulated strength (skillgym sim, scored ${n}/5)`],
      weaknesses: level === "win" ? [] : ["Simulated weakness (skillgym sim)"],
    },
  };
}

// The part of the comparator prompt that shows one output: from its heading to the next output's or the rubric.
function outputSection(text: string, side: "A" | "B"): string {
  const start = text.indexOf(`## Output ${side}`);
  if (start < 0) return "";
  const ends = ["## Output A", "## Output B", "## How to judge"]
    .map((heading) => text.indexOf(heading, start + 1))
    .filter((at) => at !== -1);
  // No heading after it: Math.min() is Infinity, and the section runs to the end.
  return text.slice(start, Math.min(...ends));
}

// `prefer` follows an output wherever it is shown; `winner` names a label, that is a position.
function comparatorWinner(text: string, judge: SimJudge | undefined): "A" | "B" | "TIE" {
  if (judge?.prefer) {
    const prefer = new RegExp(judge.prefer, "i");
    const a = prefer.test(outputSection(text, "A"));
    const b = prefer.test(outputSection(text, "B"));
    if (a !== b) return a ? "A" : "B";
  }
  return judge?.winner ?? "A";
}

function comparatorAnswer(text: string, judge: SimJudge | undefined): object {
  const winner = comparatorWinner(text, judge);
  const level = (side: "A" | "B") => (winner === "TIE" ? "tie" : winner === side ? "win" : "lose");
  const a = sideScores(level("A"));
  const b = sideScores(level("B"));
  const expectations = readExpectationsBlock(text);
  const results = (list: string[]) => {
    const details = list.map((e) => simulatedVerdict(e, judge));
    const passed = details.filter((d) => d.passed).length;
    return {
      passed,
      total: details.length,
      pass_rate: details.length ? passed / details.length : 0,
      details,
    };
  };
  return {
    winner,
    reasoning:
      winner === "TIE"
        ? "Simulated comparison (skillgym sim): scripted as a tie."
        : `Simulated comparison (skillgym sim): output ${winner} wins by script, not by reading the outputs.`,
    rubric: { A: a.rubric, B: b.rubric },
    output_quality: { A: a.quality, B: b.quality },
    ...(expectations ? { expectation_results: { A: results(expectations), B: results(expectations) } } : {}),
  };
}

function analyzerAnswer(text: string, judge: SimJudge | undefined): object {
  const tagged = readTag(text, "winner");
  const winner = tagged === "A" || tagged === "B" ? tagged : judge?.winner === "B" ? "B" : "A";
  return {
    comparison_summary: {
      winner,
      winner_skill: readTag(text, "winner-skill") ?? "(not given)",
      loser_skill: readTag(text, "loser-skill") ?? "(not given)",
      comparator_reasoning: "Simulated analysis (skillgym sim): no model read the transcripts.",
    },
    winner_strengths: ["Simulated strength (skillgym sim)"],
    loser_weaknesses: ["Simulated weakness (skillgym sim)"],
    instruction_following: {
      winner: { score: 9, issues: [] },
      loser: { score: 6, issues: ["Simulated issue (skillgym sim)"] },
    },
    improvement_suggestions: [
      {
        priority: "medium",
        category: "instructions",
        suggestion: "Simulated suggestion (skillgym sim): state each step of the workflow explicitly.",
        expected_impact: "None measured: this analysis is simulated.",
      },
    ],
    transcript_insights: {
      winner_execution_pattern: "Simulated (skillgym sim)",
      loser_execution_pattern: "Simulated (skillgym sim)",
    },
  };
}

// The analyzer's rewording of ambiguous expectations: each made concrete, without reading any run.
function rewordingAnswer(text: string): object {
  return {
    rewordings: (readExpectationsBlock(text) ?? []).map((expectation) => ({
      text: expectation,
      suggestion: `${expectation.replace(/[.\s]+$/, "")}, as shown by a named file, value or exact wording in the outputs (simulated rewording, skillgym sim)`,
    })),
  };
}

const answerers: Record<
  Exclude<JudgeKind, "describer" | "evaluator" | "drafter">,
  (text: string, judge: SimJudge | undefined, ask: JudgeAsk) => object
> = {
  grader: graderAnswer,
  comparator: comparatorAnswer,
  analyzer: analyzerAnswer,
  rewording: rewordingAnswer,
};

/** The simulator's answer to a judge prompt, or undefined when the text carries no judge marker. */
export function judgeAnswer(
  text: string,
  judge: SimJudge | undefined,
  ask: JudgeAsk = {},
): { kind: JudgeKind; text: string } | undefined {
  const kind = judgeKindOf(text);
  if (!kind) return undefined;
  if (kind === "describer") return { kind, text: describerAnswer(text) };
  if (kind === "evaluator") return { kind, text: evaluatorAnswer(text, judge?.rubric) };
  if (kind === "drafter") return { kind, text: drafterAnswer(text, judge) };
  return { kind, text: JSON.stringify(answerers[kind](text, judge, ask), null, 2) };
}
