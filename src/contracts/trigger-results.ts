import { z } from "zod";
import { Count, Rate } from "./primitives.js";

/** Ours: where trigger or catalog runs were made, when not in the clean room (`--project-root`, `--installed`, `--context`). */
export const RunConditions = z.strictObject({
  /** `--project-root`: each run started in a copy of this project, of this tree hash. */
  project_root: z.string().optional(),
  project_hash: z.string().optional(),
  /** `--with-skills` and `--installed`: the names of the skills installed beside it. */
  installed: z.array(z.string()).optional(),
  /** `--context`: each run continued this prior conversation (its file and content hash, its turn count). */
  context: z.string().optional(),
  context_hash: z.string().optional(),
  context_turns: Count.optional(),
});
export type RunConditions = z.infer<typeof RunConditions>;

/** Ours: a query's outcome in one condition of a side-by-side trigger eval (`--conditions clean,real`). */
export const ConditionOutcome = z.looseObject({
  trigger_rate: Rate.nullable(),
  triggers: Count,
  runs: Count,
  errors: Count.default(0),
  pass: z.boolean().nullable(),
  stolen_by: z.record(z.string(), z.number().int().positive()).optional(),
});
export type ConditionOutcome = z.infer<typeof ConditionOutcome>;

export const TriggerQueryResult = z
  .looseObject({
    query: z.string(),
    should_trigger: z.boolean(),
    /** triggers / (runs - errors); null when every run errored. */
    trigger_rate: Rate.nullable(),
    triggers: Count,
    /** Runs attempted, errored ones included (fewer than runs_per_query when the verdict settled early). */
    runs: Count,
    /** Ours: runs that failed to run (absent in skill-creator's files). */
    errors: Count.default(0),
    /** null when every run errored: the query could not be scored. */
    pass: z.boolean().nullable(),
    /** Ours: other skills that loaded instead of ours → how many runs. */
    stolen_by: z.record(z.string(), z.number().int().positive()).optional(),
    /**
     * Ours, side by side (`--conditions clean,real`): the query in the clean room and under the real conditions (the
     * query's own fields are the real ones), the difference of the rates (real minus clean; null when either has no
     * rate), and `flag` when it passes in one and fails in the other ("clean-only": passes clean, fails real).
     */
    side_by_side: z
      .looseObject({
        clean: ConditionOutcome,
        real: ConditionOutcome,
        difference: z.number().min(-1).max(1).nullable(),
        flag: z.enum(["clean-only", "real-only"]).optional(),
      })
      .optional(),
  })
  .superRefine((result, ctx) => {
    if (result.triggers + result.errors > result.runs)
      ctx.addIssue({
        code: "custom",
        path: ["triggers"],
        message: `triggers (${result.triggers}) plus errors (${result.errors}) exceed runs (${result.runs})`,
      });
  });
export type TriggerQueryResult = z.infer<typeof TriggerQueryResult>;

const Metric = Rate.nullable().default(null);

export const TriggerSummary = z
  .looseObject({
    /** Queries. */
    total: Count,
    passed: Count,
    failed: Count,
    /** Ours: queries that could not be scored (pass null). */
    errors: Count.default(0),
    /** Ours; null when undefined (no positive predictions, no positive queries…) or not computed. */
    precision: Metric,
    recall: Metric,
    f1: Metric,
    accuracy: Metric,
  })
  .superRefine((summary, ctx) => {
    if (summary.passed + summary.failed + summary.errors !== summary.total)
      ctx.addIssue({
        code: "custom",
        path: ["total"],
        message: `must equal passed + failed + errors (${summary.passed} + ${summary.failed} + ${summary.errors})`,
      });
  });
export type TriggerSummary = z.infer<typeof TriggerSummary>;

// trigger-results.json: skill-creator's run_eval.py output plus our fields.
export const TriggerResults = z.looseObject({
  skill_name: z.string(),
  description: z.string(),
  results: z.array(TriggerQueryResult),
  summary: TriggerSummary,
  threshold: Rate.optional(),
  /** Ours: the most runs a query got (`--runs`); a query whose verdict settled sooner has fewer `runs`. */
  runs_per_query: z.number().int().positive().optional(),
  /** Ours: true when every query got `runs_per_query` runs (`--all-runs`); false when settled queries stopped early. */
  all_runs: z.boolean().optional(),
  /** True when the agent was the offline simulator, not a real model. */
  simulated: z.boolean().optional(),
  /** Whether every run was inside the OS sandbox (`--sandbox`). */
  sandbox: z.boolean().optional(),
  model: z.string().optional(),
  /** The agent that ran (absent in results written before it was recorded: those were Claude Code's). */
  agent: z.looseObject({ name: z.string(), version: z.string().optional() }).optional(),
  /** Ours: where the runs were made, when not in the clean room (absent: an empty folder, no other skill given). */
  conditions: RunConditions.optional(),
  /**
   * Ours, side by side (`--conditions clean,real`): the same queries ran in the clean room too (their runs under
   * `triggers/clean/`); `results` and `summary` are the real conditions', this is the clean room's summary and how
   * many queries pass in only one of the two.
   */
  side_by_side: z
    .looseObject({
      conditions: z.array(z.enum(["clean", "real"])),
      clean_summary: TriggerSummary,
      /** Queries that pass in the clean room and fail under the real conditions. */
      clean_only: Count,
      /** Queries that fail in the clean room and pass under the real conditions. */
      real_only: Count,
    })
    .optional(),
  /**
   * Ours, `--screen replay`: how many of the runs made were decided by replaying the agent's captured first request
   * with the query, and how many by the real agent; with `--screen-verify`, how often the two agreed.
   */
  screen: z
    .looseObject({
      kind: z.literal("replay"),
      decided_by_replay: Count,
      decided_by_agent: Count,
      /** The agent's first request was captured by this invocation (false: it came from the result store). */
      captured: z.boolean().optional(),
      /** Why replay was not used (no API key, no first request captured, verification below 95%). */
      off: z.string().optional(),
      verified: z
        .looseObject({ runs: Count, agreed: Count, agreement: Rate.optional(), fell_back: z.boolean() })
        .optional(),
    })
    .optional(),
});
export type TriggerResults = z.infer<typeof TriggerResults>;
