import type { Benchmark } from "../contracts/benchmark.js";
import type { Change } from "../contracts/diff.js";
import type { GradingResult } from "../contracts/history.js";
import type { RunHistory, RunHistoryIteration } from "../contracts/run-history.js";

/** What one iteration (or one part of an iteration of several agents or models) says about itself. */
export interface PartFacts {
  /** The folder under the workspace: `iteration-3` or `iteration-3/old`. */
  version: string;
  iteration: number;
  part?: string;
  agent: string;
  agentVersion?: string;
  /** The model asked for; else benchmark.json's executor_model. */
  model?: string;
  skillHash?: string;
  benchmark: Benchmark;
  triggerAccuracy?: number | null;
}

/** How this row moved from its parent, as `skillgym diff` says at the floor. */
export interface ParentComparison {
  change: Change;
  regressedEvals: number;
}

/** Rows `run` wrote carry their iteration number; skill-creator's and the tune loop's do not. */
export function isRunRow(row: RunHistoryIteration): row is RunHistoryIteration & { iteration: number } {
  return row.iteration !== undefined;
}

const sameLane = (row: RunHistoryIteration, facts: PartFacts) =>
  row.agent === facts.agent && row.model === facts.model;

/**
 * The row this one is compared with. An ordinary iteration follows the previous ordinary one, whatever agent or model
 * each asked for (so `run --model old` then `run --model new` compares the models); a part of an iteration of several
 * follows the latest earlier row of the same agent and model, of either shape.
 */
export function parentOf(
  rows: readonly RunHistoryIteration[],
  facts: PartFacts,
): (RunHistoryIteration & { iteration: number }) | undefined {
  return rows
    .filter(isRunRow)
    .filter((row) => row.iteration < facts.iteration)
    .filter((row) => (facts.part === undefined ? row.part === undefined : sameLane(row, facts)))
    .at(-1);
}

const byChange: Record<Change, GradingResult> = {
  improved: "won",
  regressed: "lost",
  unchanged: "tie",
  inconclusive: "tie",
};

/**
 * One history row. Without a parent it is the part's baseline; with one whose folder could not be compared
 * (deleted since), a tie with no change recorded.
 */
export function historyRow(
  facts: PartFacts,
  parent: RunHistoryIteration | undefined,
  comparison: ParentComparison | undefined,
  floor: number,
): RunHistoryIteration {
  const { benchmark } = facts;
  const baseline = benchmark.metadata.baseline_configuration ?? null;
  const withSkill = benchmark.run_summary.with_skill?.pass_rate.mean ?? null;
  const delta = benchmark.statistics?.delta_pass_rate;
  const gradingResult: GradingResult = !parent
    ? "baseline"
    : comparison
      ? byChange[comparison.change]
      : "tie";
  return {
    version: facts.version,
    parent: parent?.version ?? null,
    // skill-creator's column needs a number: 0 when no run with the skill was graded (with_skill_pass_rate: null).
    expectation_pass_rate: withSkill ?? 0,
    grading_result: gradingResult,
    is_current_best: false,
    iteration: facts.iteration,
    ...(facts.part !== undefined ? { part: facts.part } : {}),
    agent: facts.agent,
    ...(facts.agentVersion ? { agent_version: facts.agentVersion } : {}),
    ...(facts.model ? { model: facts.model } : {}),
    ...(facts.skillHash ? { skill_hash: facts.skillHash } : {}),
    timestamp: benchmark.metadata.timestamp,
    with_skill_pass_rate: withSkill,
    baseline_configuration: baseline,
    baseline_pass_rate: baseline ? (benchmark.run_summary[baseline]?.pass_rate.mean ?? null) : null,
    delta: delta ? { estimate: delta.estimate, ci_low: delta.ci_low, ci_high: delta.ci_high } : null,
    verdict: benchmark.statistics?.verdict?.verdict ?? null,
    effect_floor: floor,
    ...(benchmark.statistics?.redundant ? { redundant: true as const } : {}),
    ...(facts.triggerAccuracy !== undefined ? { trigger_accuracy: facts.triggerAccuracy } : {}),
    ...(comparison ? { change: comparison.change, regressed_evals: comparison.regressedEvals } : {}),
  };
}

/**
 * The current best is the row with the highest with-skill pass rate (expectation_pass_rate, as skill-creator ranks
 * versions); a tie goes to the later row, the newest version that does as well.
 */
function currentBest(rows: readonly RunHistoryIteration[]): string | undefined {
  let best: RunHistoryIteration | undefined;
  for (const row of rows) if (!best || row.expectation_pass_rate >= best.expectation_pass_rate) best = row;
  return best?.version;
}

/**
 * The history with `rows` in place: a row of the same version (a resumed iteration) is replaced, not repeated; rows
 * of `run` are kept in iteration order after any rows of other writers, and the current best marked again.
 */
export function placeRows(
  history: RunHistory | undefined,
  rows: readonly RunHistoryIteration[],
  about: { skillName: string; now: string },
): RunHistory {
  const replaced = new Set(rows.map((row) => row.version));
  const kept = (history?.iterations ?? []).filter((row) => !replaced.has(row.version));
  const others = kept.filter((row) => !isRunRow(row));
  const ours = [...kept.filter(isRunRow), ...rows.filter(isRunRow)].sort((a, b) => a.iteration - b.iteration);
  const all = [...others, ...ours];
  const best = currentBest(all);
  return {
    ...history,
    started_at: history?.started_at ?? ours[0]?.timestamp ?? about.now,
    skill_name: about.skillName,
    current_best: best ?? history?.current_best ?? "",
    iterations: all.map((row) => ({ ...row, is_current_best: row.version === best })),
  };
}
