import type {
  ConditionOutcome,
  TriggerQueryResult,
  TriggerResults,
  TriggerSummary,
} from "../contracts/trigger-results.js";
import { SkillgymError } from "../errors.js";

/** The names `--conditions` takes: the clean room, and the conditions given (`--project-root`, `--installed`, …). */
export const CONDITION_NAMES = ["clean", "real"] as const;
export type ConditionName = (typeof CONDITION_NAMES)[number];

/** Which condition sets a trigger eval runs: one of them, or both side by side. */
export interface ConditionSets {
  clean: boolean;
  real: boolean;
}

/**
 * `--conditions clean,real` read into the sets to run; an unknown or repeated name is a usage error naming it. `where`
 * says where the list was written (`--conditions`, or the suite file and its field).
 */
export function parseConditionNames(names: readonly string[], where = "--conditions"): ConditionSets {
  if (names.length === 0)
    throw new SkillgymError("USAGE", `${where}: name at least one condition`, {
      hint: 'give "clean", "real" or "clean,real"',
    });
  const seen = new Set<string>();
  for (const name of names) {
    if (!(CONDITION_NAMES as readonly string[]).includes(name))
      throw new SkillgymError("USAGE", `${where}: unknown condition "${name}"`, {
        hint: 'the conditions are "clean" (an empty folder, no other skill, a fresh conversation) and "real" (the --project-root, --installed and --context given)',
      });
    if (seen.has(name))
      throw new SkillgymError("USAGE", `${where}: "${name}" is named twice`, {
        hint: 'give "clean", "real" or "clean,real"',
      });
    seen.add(name);
  }
  return { clean: seen.has("clean"), real: seen.has("real") };
}

/** The conditions a "real" set is made of; "real" with none of them is the clean room under another name. */
export interface GivenConditions {
  project?: string | undefined;
  installed?: readonly string[] | undefined;
  context?: string | undefined;
}

export function hasRealCondition(given: GivenConditions): boolean {
  return given.project !== undefined || (given.installed?.length ?? 0) > 0 || given.context !== undefined;
}

/** Checks that a "real" set has something to be real with, before any agent starts. */
export function checkConditionSets(
  sets: ConditionSets,
  given: GivenConditions,
  where = "--conditions",
): void {
  if (sets.real && !hasRealCondition(given))
    throw new SkillgymError(
      "USAGE",
      `${where}: "real" needs a condition to run under, and none was given (no --project-root, --installed or --context)`,
      { hint: "give the project, the installed skills or the prior conversation, or leave out --conditions" },
    );
}

const outcomeOf = (r: TriggerQueryResult): ConditionOutcome => ({
  trigger_rate: r.trigger_rate,
  triggers: r.triggers,
  runs: r.runs,
  errors: r.errors,
  pass: r.pass,
  ...(r.stolen_by ? { stolen_by: r.stolen_by } : {}),
});

/** "clean-only": passes in the clean room and fails under the real conditions; "real-only": the other way. */
export type SideBySideFlag = "clean-only" | "real-only";

export function flagOf(clean: boolean | null, real: boolean | null): SideBySideFlag | undefined {
  if (clean === true && real === false) return "clean-only";
  if (clean === false && real === true) return "real-only";
  return undefined;
}

/**
 * The real set's results with each query's outcome in both conditions beside it: the rates, their difference (real
 * minus clean) and the flag of a query that passes in one and fails in the other. Queries are matched by position:
 * both sets ran the same suite.
 */
export function sideBySide(
  clean: Pick<TriggerResults, "results" | "summary">,
  real: TriggerResults,
): TriggerResults {
  let cleanOnly = 0;
  let realOnly = 0;
  const results = real.results.map((r, i) => {
    const c = clean.results[i];
    if (!c) return r;
    const flag = flagOf(c.pass, r.pass);
    if (flag === "clean-only") cleanOnly++;
    if (flag === "real-only") realOnly++;
    const difference =
      c.trigger_rate === null || r.trigger_rate === null ? null : r.trigger_rate - c.trigger_rate;
    return {
      ...r,
      side_by_side: { clean: outcomeOf(c), real: outcomeOf(r), difference, ...(flag ? { flag } : {}) },
    };
  });
  const summary: TriggerSummary = clean.summary;
  return {
    ...real,
    results,
    side_by_side: {
      conditions: ["clean", "real"],
      clean_summary: summary,
      clean_only: cleanOnly,
      real_only: realOnly,
    },
  };
}

/** What a flag means for a query, in the words the summary and the viewer use. */
export function flagSentence(flag: SideBySideFlag, shouldTrigger: boolean, project: boolean): string {
  const clean = project ? "in an empty folder" : "in the clean room";
  const real = project ? "in your repository" : "under your conditions";
  if (shouldTrigger)
    return flag === "clean-only" ? `fires ${clean}, not ${real}` : `fires ${real}, not ${clean}`;
  return flag === "clean-only" ? `quiet ${clean}, fires ${real}` : `quiet ${real}, fires ${clean}`;
}
