// The protocol between skillgym's judge prompts and the simulator: a marker names the kind of prompt, and the
// expectations travel as a JSON array between tags, so the simulator can answer without a model.
export const judgeMarkers = {
  grader: "<skillgym-grader>",
  comparator: "<skillgym-comparator>",
  analyzer: "<skillgym-analyzer>",
  /** `skillgym judges`: a clearer wording of expectations the judges disagree or flip on. */
  rewording: "<skillgym-rewording>",
  /** The description optimizer's improver: answers a new skill description as plain text. */
  describer: "<skillgym-describer>",
  /** The tune loop's evaluator: the 5-dimension rubric with strengths, weaknesses and suggestions. */
  evaluator: "<skillgym-evaluator>",
  /** draft-evals: trigger queries and evals for a skill, as one JSON object. */
  drafter: "<skillgym-drafter>",
} as const;

export type JudgeKind = keyof typeof judgeMarkers;

const EXPECTATIONS_OPEN = "<expectations>";
const EXPECTATIONS_CLOSE = "</expectations>";

/** The expectations as a JSON array between tags; `<` is escaped so no expectation can close the block early. */
export function expectationsBlock(expectations: readonly string[]): string {
  const json = JSON.stringify(expectations, null, 2).replace(/</g, "\\u003c");
  return `${EXPECTATIONS_OPEN}\n${json}\n${EXPECTATIONS_CLOSE}`;
}

/** The kind of judge prompt whose marker comes first in the text, if any. */
export function judgeKindOf(text: string): JudgeKind | undefined {
  let found: { kind: JudgeKind; at: number } | undefined;
  for (const [kind, marker] of Object.entries(judgeMarkers) as [JudgeKind, string][]) {
    const at = text.indexOf(marker);
    // Stryker disable next-line EqualityOperator: equivalent, two different markers never start at one place
    if (at >= 0 && (!found || at < found.at)) found = { kind, at };
  }
  return found?.kind;
}

/** The first expectations block in the text; undefined when there is none or it is not a JSON array of strings. */
export function readExpectationsBlock(text: string): string[] | undefined {
  const open = text.indexOf(EXPECTATIONS_OPEN);
  if (open < 0) return undefined;
  const close = text.indexOf(EXPECTATIONS_CLOSE, open);
  // Stryker disable next-line EqualityOperator: equivalent, the closing tag is searched for after the opening one
  if (close < 0) return undefined;
  try {
    const list: unknown = JSON.parse(text.slice(open + EXPECTATIONS_OPEN.length, close));
    if (Array.isArray(list) && list.every((e) => typeof e === "string")) return list;
  } catch {}
  return undefined;
}

/** The text between `<tag>` and `</tag>`, trimmed, if present. */
export function readTag(text: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text);
  return match?.[1]?.trim();
}
