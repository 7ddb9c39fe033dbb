import type { BaselineConfiguration, Configuration } from "../contracts/benchmark.js";
import type { AmbiguousExpectation } from "../contracts/judges.js";
import type { MergePartial } from "../contracts/shard.js";
import { partialText } from "../shard/index.js";
import { isFlaky, tallyAssertions } from "./assertions.js";
import { describeInterval, evalLabel, percent, plural, quoted } from "./labels.js";
import { type ExclusionKind, evalKey, isGraded, type RunData, timeSeconds, tokensUsed } from "./model.js";
import type { PairedDelta } from "./paired-delta.js";
import { median, sampleStddev } from "./statistics.js";

export interface NotesInput {
  runs: readonly RunData[];
  configurations: readonly Configuration[];
  baseline?: BaselineConfiguration;
  delta?: PairedDelta;
  simulated: boolean;
  /** Problems with the iteration as a whole. */
  problems: readonly string[];
  /** A `merge --partial`: what the merged shards lacked. */
  partial?: MergePartial;
  /** Expectations the judges disagree or flip on (judges.json). */
  ambiguous?: readonly AmbiguousExpectation[];
}

export const highVariance = 0.3;
export const outlierFactor = 2;
/** Below this many paired runs a bootstrap interval is rough (too narrow, if anything). */
export const fewPairs = 10;

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function baselineWords(baseline: BaselineConfiguration): string {
  return baseline === "old_skill" ? "with the old skill" : "without the skill";
}

function deltaNotes(input: NotesInput): string[] {
  if (!input.baseline) {
    return ["No baseline configuration was run, so there is no delta: run `skillgym eval` with a baseline"];
  }
  if (!input.delta) return [];
  const { overall, pairs, pairedEvals, baseline } = input.delta;
  const what = `Pass rate, with_skill − ${baseline}`;
  if (!overall) {
    return [
      `${what}: no paired runs to compare (${plural(pairs, "pair")}; an interval needs at least 2 runs graded in both configurations with the same eval and run number)`,
    ];
  }
  const notes = [
    `${what}: ${describeInterval(overall)}, over ${plural(pairs, "paired run")} in ${plural(pairedEvals, "eval")}`,
  ];
  if (pairs < fewPairs)
    notes.push(
      `Only ${plural(pairs, "paired run")}: treat the interval as rough (a bootstrap this small tends to be too narrow); more runs (--runs) help`,
    );
  return notes;
}

const exclusionWords: Record<ExclusionKind, [one: string, many: string]> = {
  errored: ["run errored", "runs errored"],
  ungraded: ["run is not graded yet", "runs are not graded yet"],
  not_run: ["planned run was never run", "planned runs were never run"],
  unreadable: [
    "run has unreadable files (see its `error`)",
    "runs have unreadable files (see their `error`)",
  ],
  contaminated: [
    "run is contaminated: it saw the skill it should not have (see its activation.json)",
    "runs are contaminated: they saw the skill they should not have (see their activation.json)",
  ],
};

function exclusionNotes(input: NotesInput): string[] {
  const notes: string[] = [];
  for (const configuration of input.configurations) {
    for (const kind of Object.keys(exclusionWords) as ExclusionKind[]) {
      const runs = input.runs.filter((r) => r.configuration === configuration && r.exclusion?.kind === kind);
      if (runs.length === 0) continue;
      const [one, many] = exclusionWords[kind];
      const reasons = new Map<string, number>();
      for (const r of runs) reasons.set(r.exclusion!.reason, (reasons.get(r.exclusion!.reason) ?? 0) + 1);
      const why =
        kind !== "errored"
          ? ""
          : reasons.size === 1
            ? ` (${[...reasons.keys()][0]})`
            : ` (${[...reasons].map(([reason, n]) => `${n} ${reason}`).join(", ")})`;
      const verb = runs.length === 1 ? "is" : "are";
      const outOf = kind === "contaminated" ? "the pass rates and the delta" : "the pass rates";
      notes.push(
        `${configuration}: ${runs.length} ${runs.length === 1 ? one : many}${why} and ${verb} left out of ${outOf}`,
      );
    }
  }
  return notes;
}

function assertionNotes(input: NotesInput): string[] {
  const notes: string[] = [];
  for (const tally of tallyAssertions(input.runs)) {
    const label = `${evalLabel(tally.evalId, tally.evalName)}: assertion ${quoted(tally.text)}`;
    const counts = [...tally.byConfiguration.values()];
    const runs = counts.reduce((sum, c) => sum + c.runs, 0);
    const withSkill = tally.byConfiguration.get("with_skill");
    const base = input.baseline ? tally.byConfiguration.get(input.baseline) : undefined;
    if (input.baseline && withSkill && base && counts.every((c) => c.passed === c.runs)) {
      notes.push(
        `${label} is non-discriminating: passes 100% with and ${baselineWords(input.baseline)} (${plural(runs, "run")}); it does not measure the skill`,
      );
    } else if (runs >= 2 && counts.every((c) => c.passed === 0)) {
      notes.push(
        `${label} always fails — check the assertion or the eval (failed all ${plural(runs, "run")})`,
      );
    }
    const flaky = [...tally.byConfiguration].filter(([, c]) => isFlaky(c));
    if (flaky.length > 0) {
      const detail = flaky
        .map(([configuration, c]) => `${c.passed} of ${c.runs} ${configuration} runs`)
        .join(", ");
      notes.push(`${label} is flaky: passed ${detail}`);
    }
  }
  return notes;
}

function varianceNotes(input: NotesInput): string[] {
  const notes: string[] = [];
  const evals = [...new Map(input.runs.map((r) => [evalKey(r.evalId), r])).values()];
  for (const first of evals) {
    for (const configuration of input.configurations) {
      const rates = input.runs
        .filter((r) => evalKey(r.evalId) === evalKey(first.evalId) && r.configuration === configuration)
        .filter(isGraded)
        .map((r) => r.grading.summary.pass_rate);
      // Fewer than two rates have a spread of 0.
      const spread = sampleStddev(rates);
      if (spread < highVariance) continue;
      const average = rates.reduce((a, b) => a + b, 0) / rates.length;
      notes.push(
        `${evalLabel(first.evalId, first.evalName)} shows high variance ${configuration} (${percent(average)} ± ${percent(spread)} over ${rates.length} runs) — may be flaky or model-dependent`,
      );
    }
  }
  return notes;
}

function outlierNotes(input: NotesInput, measure: "time" | "tokens"): string[] {
  const notes: string[] = [];
  const measured = (r: RunData) => (measure === "time" ? timeSeconds(r) : tokensUsed(r));
  const show = (v: number) => (measure === "time" ? `${v.toFixed(1)} s` : `${Math.round(v)} tokens`);
  for (const configuration of input.configurations) {
    const runs = input.runs.filter((r) => r.configuration === configuration && r.exclusion === undefined);
    const values = runs.map(measured).filter((v): v is number => v !== undefined);
    const middle = median(values);
    // Fewer than three runs need no guard: neither of two runs is more than twice their median.
    if (!(middle > 0)) continue;
    for (const run of runs) {
      const value = measured(run);
      if (value === undefined || value <= outlierFactor * middle) continue;
      const verb = measure === "time" ? "took" : "used";
      notes.push(
        `${evalLabel(run.evalId, run.evalName)} ${configuration} run ${run.runNumber} ${verb} ${show(value)}, more than ${outlierFactor}× the ${configuration} median (${show(middle)})`,
      );
    }
  }
  return notes;
}

// An expectation graders read two ways makes every pass rate that counts it doubtful.
function ambiguityNotes(input: NotesInput): string[] {
  return (input.ambiguous ?? []).map(
    (a) =>
      `Ambiguous expectation ${quoted(a.text)} (eval ${String(a.eval_id)}): ${a.reasons.join("; ")}` +
      (a.suggested_rewording ? `; consider: ${quoted(a.suggested_rewording)}` : ""),
  );
}

/** The benchmark's notes: what a reader must know before trusting the numbers, then what to fix in the suite. */
export function benchmarkNotes(input: NotesInput): string[] {
  return [
    ...(input.simulated
      ? ["These results come from skillgym sim, not a model: they test the suite, not the skill"]
      : []),
    ...(input.partial ? [`${capitalized(partialText(input.partial))}`] : []),
    ...deltaNotes(input),
    ...exclusionNotes(input),
    ...assertionNotes(input),
    ...ambiguityNotes(input),
    ...varianceNotes(input),
    ...outlierNotes(input, "time"),
    ...outlierNotes(input, "tokens"),
    ...input.problems,
  ];
}
