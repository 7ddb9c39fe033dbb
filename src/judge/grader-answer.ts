import type {
  Claim,
  EvalFeedback,
  EvalFeedbackSuggestion,
  GradedExpectation,
  UserNotesSummary,
} from "../contracts/grading.js";
import { jsonObjectsIn } from "./json-objects.js";
import { JudgeError } from "./judge.js";

/** What the grader contributes to grading.json; summary, metrics and timing are added by the caller. */
export interface GraderAnswer {
  expectations: GradedExpectation[];
  claims: Claim[];
  user_notes_summary: UserNotesSummary;
  eval_feedback?: EvalFeedback;
}

type Json = Record<string, unknown>;
type Answer = Json & { expectations: unknown[] };

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
const normalize = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

/** The answer's JSON object with an `expectations` key, whether bare, in a ```json fence, or amid prose. */
export function extractAnswerObject(text: string): Answer {
  const candidates = jsonObjectsIn(text);
  const answer = candidates.find((c): c is Answer => Array.isArray(c.expectations));
  if (answer) return answer;
  throw new JudgeError(
    candidates.length > 0
      ? 'the judge\'s answer has no JSON object with an "expectations" array'
      : "the judge's answer holds no JSON object",
    false,
  );
}

export function coercePassed(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return undefined;
  const word = value.trim().toLowerCase();
  if (["pass", "passed", "true", "yes"].includes(word)) return true;
  if (["fail", "failed", "false", "no"].includes(word)) return false;
  return undefined;
}

interface Verdict {
  text: string;
  passed: boolean;
  evidence: string;
}

function readVerdicts(raw: unknown[]): Verdict[] {
  return raw.map((entry, i) => {
    if (!isObject(entry))
      throw new JudgeError(`the judge's answer: expectations[${i}] is not an object`, false);
    const passed = coercePassed(entry.passed ?? entry.verdict ?? entry.result);
    if (passed === undefined)
      throw new JudgeError(`the judge's answer: expectations[${i}].passed is not PASS or FAIL`, false);
    const evidence = typeof entry.evidence === "string" && entry.evidence.trim() ? entry.evidence : "";
    return { text: typeof entry.text === "string" ? entry.text : "", passed, evidence };
  });
}

// Each expectation takes the verdict with its text; failing that, the verdict at its position.
function matchVerdicts(verdicts: Verdict[], expectations: readonly string[]): GradedExpectation[] {
  const used = new Set<number>();
  const byText = expectations.map((text) => {
    const at = verdicts.findIndex((v, i) => !used.has(i) && normalize(v.text) === normalize(text));
    if (at >= 0) used.add(at);
    return at;
  });
  const chosen = byText.map((at, i) => {
    if (at >= 0) return at;
    if (i < verdicts.length && !used.has(i)) {
      used.add(i);
      return i;
    }
    throw new JudgeError(`the judge gave no verdict for expectation ${i + 1}: "${expectations[i]}"`, false);
  });
  if (used.size < verdicts.length) {
    const extra = verdicts.filter((_, i) => !used.has(i)).map((v) => `"${v.text}"`);
    throw new JudgeError(
      `the judge gave ${verdicts.length} verdicts for ${expectations.length} expectations (unmatched: ${extra.join(", ")})`,
      false,
    );
  }
  return chosen.map((at, i) => {
    const verdict = verdicts[at] as Verdict;
    return {
      text: expectations[i] as string,
      passed: verdict.passed,
      evidence: verdict.evidence || "(the judge gave no evidence)",
      source: "judge" as const,
    };
  });
}

function readClaims(raw: unknown): Claim[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).flatMap((c) => {
    if (typeof c.claim !== "string") return [];
    const verified = coercePassed(c.verified) ?? false;
    return [
      {
        claim: c.claim,
        type: typeof c.type === "string" ? c.type : "factual",
        verified,
        ...(typeof c.evidence === "string" ? { evidence: c.evidence } : {}),
      },
    ];
  });
}

function readNotes(raw: unknown): UserNotesSummary {
  const notes = isObject(raw) ? raw : {};
  return {
    uncertainties: strings(notes.uncertainties),
    needs_review: strings(notes.needs_review),
    workarounds: strings(notes.workarounds),
  };
}

function readFeedback(raw: unknown): EvalFeedback | undefined {
  if (!isObject(raw)) return undefined;
  // Stryker disable next-line ArrayDeclaration: equivalent, what is not an object is filtered out below
  const suggestions: EvalFeedbackSuggestion[] = (Array.isArray(raw.suggestions) ? raw.suggestions : [])
    .filter(isObject)
    .flatMap((s) =>
      typeof s.reason === "string"
        ? [{ ...(typeof s.assertion === "string" ? { assertion: s.assertion } : {}), reason: s.reason }]
        : [],
    );
  const overall = typeof raw.overall === "string" ? raw.overall : "";
  if (suggestions.length === 0 && !overall) return undefined;
  return { suggestions, overall };
}

/** Reads a grader's answer; a JudgeError (not retryable) says what is wrong with it. */
export function parseGraderAnswer(text: string, expectations: readonly string[]): GraderAnswer {
  const answer = extractAnswerObject(text);
  const graded = matchVerdicts(readVerdicts(answer.expectations), expectations);
  const feedback = readFeedback(answer.eval_feedback);
  return {
    expectations: graded,
    claims: readClaims(answer.claims),
    user_notes_summary: readNotes(answer.user_notes_summary),
    ...(feedback ? { eval_feedback: feedback } : {}),
  };
}
