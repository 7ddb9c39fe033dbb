import { z } from "zod";

export { SIM_MODEL } from "./sim-model.js";

// A simulator script: deterministic, scriptable behaviour for `skillgym sim` (see README "The simulator").
export const SimStep = z.union([
  z.strictObject({ write: z.strictObject({ path: z.string().min(1), content: z.string() }) }),
  z.strictObject({ bash: z.string().min(1) }),
  z.strictObject({ read: z.string().min(1) }),
  z.strictObject({ skill: z.string().min(1) }),
  z.strictObject({ text: z.string() }),
]);
export type SimStep = z.infer<typeof SimStep>;

export const SimFault = z.strictObject({
  /** HTTP status to answer with: 429 rate limit, 529 overloaded, 500 server error. */
  status: z.union([z.literal(429), z.literal(500), z.literal(529)]).optional(),
  /** Never answer: the request hangs until the client gives up. */
  hang: z.boolean().optional(),
  /** How many sessions (agent runs) matching the rule get the fault; later sessions are served normally. */
  sessions: z.number().int().positive().optional(),
});
export type SimFault = z.infer<typeof SimFault>;

export const SimRule = z.strictObject({
  /** A case-insensitive regular expression matched against the user's prompt. Omitted: matches every prompt. */
  match: z.string().optional(),
  /**
   * A case-insensitive regular expression matched against the model the agent asks for (`--model`). Omitted: every
   * model. Lets one script give two models different behaviour, e.g. a skill that lifts `old` and not `new`.
   */
  model: z.string().min(1).optional(),
  /**
   * A case-insensitive regular expression matched against the name of each skill the request lists (the agent's
   * built-in skills, the skill under test under its synthetic name, the skills installed beside it): the rule fits
   * when some name matches. Lets one query go to a rival skill only when that skill is installed (`--installed`).
   */
  skills: z.string().min(1).optional(),
  /**
   * A case-insensitive regular expression matched against the name of each entry at the top of the run's working
   * directory (read by the simulator from the directory the request names): the rule fits when some name matches.
   * Lets a query behave differently in the user's project (`--project-root`) than in an empty folder.
   */
  files: z.string().min(1).optional(),
  /**
   * A case-insensitive regular expression matched against the text of each turn before the prompt (a prior
   * conversation the run continues, `--context`): the rule fits when some turn matches; a fresh conversation has no
   * turns, so it never fits there. Lets a query stop firing mid-conversation. Read from Claude Code's and Gemini CLI's
   * requests.
   */
  history: z.string().min(1).optional(),
  /**
   * true: the rule fits only requests skillgym's replay sends (`--screen replay`, marked by its `x-skillgym-replay`
   * header); false: only the agent's own. Omitted: both. Lets a script answer a replayed request unlike the agent's,
   * to test `--screen-verify`.
   */
  replayed: z.boolean().optional(),
  /**
   * Which skill to load: "auto" (the best word overlap, the default), "none", or a skill name. A name that starts
   * with "~" picks the listed skill whose name contains the rest (for synthetic names such as `my-skill-3f9a`).
   */
  skill: z.string().optional(),
  /**
   * Per-run cycle deciding whether the chosen skill loads: run n (its number in the plan, read from the working
   * directory skillgym names) uses entry n-1 mod length, whatever the shard, order or reuse; a client that names no
   * run gets the entries in the order its sessions of the prompt come.
   */
  trigger_pattern: z.array(z.boolean()).min(1).optional(),
  /**
   * How runs take `trigger_pattern`'s entries: "run" (the default, as above) or "arrival" — every session of the rule
   * and prompt takes the next entry in the order it reaches the simulator, whatever its run, so two arms of the same
   * skill differ as a real model's runs do (an A/A noise check). Reproducible with `--concurrency 1` only.
   */
  pattern_by: z.enum(["run", "arrival"]).optional(),
  /** Steps taken before the skill loads (e.g. reading files first). */
  before: z.array(SimStep).optional(),
  /** Steps taken after the skill loaded. */
  steps: z.array(SimStep).optional(),
  /** Steps taken when no skill loads. */
  without_skill: z.array(SimStep).optional(),
  fault: SimFault.optional(),
  latency_ms: z.number().int().nonnegative().optional(),
});
export type SimRule = z.infer<typeof SimRule>;

export const SimVerdict = z.strictObject({
  /** A case-insensitive regular expression matched against the expectation's text. */
  match: z.string().min(1),
  passed: z.boolean(),
  /** Applies only when this case-insensitive regular expression is found in the judge's prompt (the run's outputs). */
  when: z.string().min(1).optional(),
  /** Evidence quoted in the verdict; default "Simulated verdict (skillgym sim)". */
  evidence: z.string().optional(),
  /** Applies only to a judge whose model name this case-insensitive regular expression matches (`--judge sim:<model>`). */
  judge_model: z.string().min(1).optional(),
  /** Asked the same grading prompt again, the verdict alternates: `passed`, then the opposite, then `passed`… */
  flips: z.boolean().optional(),
});
export type SimVerdict = z.infer<typeof SimVerdict>;

const RubricScore = z.number().min(0).max(100);
const RubricDimensions = z
  .strictObject({
    clarity: RubricScore,
    completeness: RubricScore,
    correctness: RubricScore,
    effectiveness: RubricScore,
    efficiency: RubricScore,
  })
  .partial();

export const SimRubricCase = z.strictObject({
  /** A case-insensitive regular expression matched against the evaluator's prompt (the skill's files, its outputs). */
  match: z.string().min(1),
  /** Every dimension's score. */
  score: RubricScore.optional(),
  /** Scores of single dimensions, over `score`. */
  dimensions: RubricDimensions.optional(),
  suggestions: z.array(z.string()).optional(),
});
export type SimRubricCase = z.infer<typeof SimRubricCase>;

// The tune loop's evaluator: the 5-dimension rubric the simulator answers instead of a model.
export const SimRubric = z.strictObject({
  /** Every dimension's score when no case matches; default 70. */
  default: RubricScore.optional(),
  dimensions: RubricDimensions.optional(),
  suggestions: z.array(z.string()).optional(),
  /** The first case whose `match` fits the prompt decides the scores. */
  when: z.array(SimRubricCase).optional(),
});
export type SimRubric = z.infer<typeof SimRubric>;

// How the simulator answers judge prompts (grader, blind comparator, analyzer, tune evaluator) instead of a model.
export const SimJudge = z.strictObject({
  /** The first verdict whose `match` fits an expectation decides it; others get `default`. */
  verdicts: z.array(SimVerdict).optional(),
  default: z.enum(["pass", "fail"]).default("pass"),
  /** The blind comparator's winner by label ("A" is always shown first); the analyzer explains a win of "A" when "TIE". */
  winner: z.enum(["A", "B", "TIE"]).optional(),
  /** The comparator prefers the output whose part of the prompt this case-insensitive regular expression matches, in either order; `winner` decides when both or neither match. */
  prefer: z.string().min(1).optional(),
  rubric: SimRubric.optional(),
  /** draft-evals' answer: valid drafts (default), non-JSON always or on the first ask only, or JSON breaking the schema. */
  drafter: z.enum(["valid", "invalid", "invalid-once", "bad-schema"]).optional(),
  /** Tool steps an agent judge (one whose request offers tools) takes before it answers, e.g. a write it must not make. */
  steps: z.array(SimStep).optional(),
});
export type SimJudge = z.output<typeof SimJudge>;

export const SimScript = z.strictObject({
  skill_choice: z
    .strictObject({
      /** Minimum share of the prompt's content words found in a description for the skill to be chosen. */
      cutoff: z.number().min(0).max(1).optional(),
      /** Minimum number of shared content words. */
      min_shared: z.number().int().positive().optional(),
      /** Skill names never chosen automatically (Claude Code's built-in skills are ignored by default). */
      ignore: z.array(z.string()).optional(),
    })
    .optional(),
  rules: z.array(SimRule).default([]),
  judge: SimJudge.optional(),
});
export type SimScript = z.output<typeof SimScript>;
