import type { BootstrapOptions } from "../bench/statistics.js";
import type {
  AmbiguousExpectation,
  JudgeGate,
  JudgeIdentity,
  JudgePair,
  JudgesReport,
} from "../contracts/judges.js";
import { humanAgreement, judgePairs, selfConsistency } from "./agreement.js";
import { ambiguousExpectations } from "./ambiguous.js";
import type { GradedItem, ItemVerdict, VerdictTable } from "./verdicts.js";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The --min-judge-agreement gate: every pair's percent agreement at or above it; fewer than two judges fail it. */
export function judgeGate(pairs: readonly JudgePair[], min: number): JudgeGate {
  const measured = pairs.filter((p) => p.percent_agreement !== null);
  if (measured.length === 0)
    return {
      min_judge_agreement: min,
      passed: false,
      message: "no pair of judges graded the same expectations",
    };
  const worst = measured.reduce((a, b) => ((b.percent_agreement ?? 1) < (a.percent_agreement ?? 1) ? b : a));
  const rate = worst.percent_agreement ?? 0;
  const passed = rate >= min;
  return {
    min_judge_agreement: min,
    passed,
    message: `lowest judge agreement ${pct(rate)} (${worst.a} vs ${worst.b}) ${passed ? ">=" : "<"} ${pct(min)}`,
  };
}

export interface ReportInput {
  iterationDir: string;
  createdAt: string;
  judges: readonly JudgeIdentity[];
  repeat: number;
  runs: number;
  simulated: boolean;
  items: ReadonlyMap<string, GradedItem>;
  table: VerdictTable;
  truth: ReadonlyMap<string, ItemVerdict>;
  minJudgeAgreement?: number;
  bootstrap?: BootstrapOptions;
}

/** judges.json from the verdicts: pairs, humans, self-consistency and the ambiguous expectations (not yet reworded). */
export function buildJudgesReport(input: ReportInput): JudgesReport {
  const ids = input.judges.map((j) => j.id);
  const pairs = judgePairs(ids, input.items, input.table, input.bootstrap);
  const consistency = input.repeat > 1 ? selfConsistency(ids, input.items, input.table) : [];
  const ambiguous: AmbiguousExpectation[] = ambiguousExpectations(pairs, consistency);
  return {
    created_at: input.createdAt,
    iteration_dir: input.iterationDir,
    repeat: input.repeat,
    runs: input.runs,
    simulated: input.simulated,
    judges: [...input.judges],
    pairs,
    humans: humanAgreement(ids, input.items, input.table, input.truth, input.bootstrap),
    human_marks: input.truth.size,
    self_consistency: consistency,
    ambiguous,
    ...(input.minJudgeAgreement !== undefined ? { gate: judgeGate(pairs, input.minJudgeAgreement) } : {}),
  };
}
