// A judge's arithmetic is not trusted: the scores derived from other scores are recomputed from them.

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function round(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

function meanOf(scores: unknown): number | undefined {
  if (!isObject(scores)) return undefined;
  const values = Object.values(scores).filter((v): v is number => Number.isFinite(v));
  if (values.length === 0) return undefined;
  return round(values.reduce((sum, v) => sum + v, 0) / values.length, 1);
}

function normalizeRubric(side: unknown): unknown {
  if (!isObject(side)) return side;
  const content = meanOf(side.content);
  const structure = meanOf(side.structure);
  const out: Json = { ...side };
  if (content !== undefined) out.content_score = content;
  if (structure !== undefined) out.structure_score = structure;
  if (content !== undefined && structure !== undefined) out.overall_score = round(content + structure, 1);
  return out;
}

function normalizeExpectations(side: unknown): unknown {
  if (!isObject(side)) return side;
  const details = Array.isArray(side.details) ? side.details.filter(isObject) : undefined;
  if (details && details.length > 0) {
    const passed = details.filter((d) => d.passed === true).length;
    return { ...side, passed, total: details.length, pass_rate: round(passed / details.length, 2) };
  }
  if (typeof side.passed === "number" && typeof side.total === "number" && side.total > 0) {
    return { ...side, pass_rate: round(side.passed / side.total, 2) };
  }
  return side;
}

function normalizeWinner(winner: unknown): unknown {
  if (typeof winner !== "string") return winner;
  const word = winner.trim().toUpperCase();
  return ["A", "B", "TIE"].includes(word) ? word : winner;
}

function perSide(value: unknown, fix: (side: unknown) => unknown): unknown {
  if (!isObject(value)) return value;
  return { ...value, A: fix(value.A), B: fix(value.B) };
}

/** Recomputes the rubric's means and sums and the expectation counts; drops expectation results nobody asked for. */
export function normalizeComparison(data: Json, hasExpectations: boolean): Json {
  const out: Json = {
    ...data,
    winner: normalizeWinner(data.winner),
    rubric: perSide(data.rubric, normalizeRubric),
  };
  if (!hasExpectations) delete out.expectation_results;
  else if (out.expectation_results !== undefined) {
    out.expectation_results = perSide(out.expectation_results, normalizeExpectations);
  }
  return out;
}

/** The analysis names the winner and the skills as they were, whatever the model wrote there. */
export function normalizeAnalysis(
  data: Json,
  summary: { winner: "A" | "B"; winner_skill: string; loser_skill: string; comparator_reasoning: string },
): Json {
  const given = isObject(data.comparison_summary) ? data.comparison_summary : {};
  const reasoning =
    typeof given.comparator_reasoning === "string" && given.comparator_reasoning.trim() !== ""
      ? given.comparator_reasoning
      : summary.comparator_reasoning;
  return { ...data, comparison_summary: { ...given, ...summary, comparator_reasoning: reasoning } };
}
