import { z } from "zod";
import { expectationsBlock, judgeMarkers } from "../contracts/judge-markers.js";
import type { Judge } from "../judge/judge.js";
import { askForJson } from "./judge-json.js";

/** An expectation graders read two ways, with what they said about it. */
export interface AmbiguousInput {
  text: string;
  reasons: string[];
  /** Verdicts the graders gave, each with its evidence: "sim:strict FAIL: …". */
  verdicts: string[];
}

const Rewordings = z.looseObject({
  rewordings: z.array(z.looseObject({ text: z.string(), suggestion: z.string().min(1) })),
});

export interface RewordResult {
  /** Expectation text → the suggested wording. */
  suggestions: Map<string, string>;
  costUsd: number;
}

const SYSTEM = [
  "You are the analyzer of an eval suite. Graders disagreed about the expectations below, or changed their verdict",
  "when asked again: each is probably worded so it can be read two ways. For each, suggest one clearer wording that",
  "keeps its intent and that two careful graders would grade alike (name the file, value or exact words that show it).",
  "Answer with exactly one JSON object and nothing else.",
].join(" ");

function rewordPrompt(items: readonly AmbiguousInput[]): string {
  return [
    judgeMarkers.rewording,
    "",
    "## The expectations",
    "",
    expectationsBlock(items.map((i) => i.text)),
    "",
    "## What the graders said",
    "",
    ...items.flatMap((item, n) => [
      `${n + 1}. ${JSON.stringify(item.text)}`,
      ...item.reasons.map((r) => `   - ${r}`),
      ...item.verdicts.slice(0, 6).map((v) => `   - ${v.slice(0, 400)}`),
    ]),
    "",
    "## Answer",
    "",
    '{"rewordings": [{"text": "<the expectation, as given>", "suggestion": "<a clearer wording>"}]}',
  ].join("\n");
}

/** Asks the analyzer for a clearer wording of each ambiguous expectation, in one request. */
export async function suggestRewordings(
  judge: Judge,
  items: readonly AmbiguousInput[],
  signal?: AbortSignal,
): Promise<RewordResult> {
  if (items.length === 0) return { suggestions: new Map(), costUsd: 0 };
  const answer = await askForJson({
    judge,
    role: "analyzer",
    schema: Rewordings,
    request: { system: SYSTEM, prompt: rewordPrompt(items), maxTokens: 4096, ...(signal ? { signal } : {}) },
  });
  const known = new Set(items.map((i) => i.text));
  const suggestions = new Map(
    answer.value.rewordings.filter((r) => known.has(r.text)).map((r) => [r.text, r.suggestion] as const),
  );
  return { suggestions, costUsd: answer.costUsd };
}
