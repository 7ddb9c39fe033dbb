import { z } from "zod";
import { ShardInfo } from "./shard.js";
import { ReusedFrom } from "./store-entry.js";
import { RunConditions, TriggerResults } from "./trigger-results.js";

const Ratio = z.number().min(0).max(1).nullable();

/** One skill of the catalog: how well it is picked for its own queries. */
export const CatalogSkill = z.strictObject({
  name: z.string(),
  /** The skill folder. */
  path: z.string(),
  /** Trigger queries of its own; 0: it took part only as a competitor. */
  queries: z.number().int().nonnegative(),
  /** Scored runs of its own queries. */
  runs: z.number().int().nonnegative(),
  /** Runs of its should-trigger queries in which it fired first, of its should-not-trigger ones in which it did. */
  true_positives: z.number().int().nonnegative(),
  false_positives: z.number().int().nonnegative(),
  false_negatives: z.number().int().nonnegative(),
  true_negatives: z.number().int().nonnegative(),
  precision: Ratio,
  recall: Ratio,
  f1: Ratio,
});
export type CatalogSkill = z.infer<typeof CatalogSkill>;

/** One query run of the catalog, attributed to the skill that fired first. */
export const CatalogRun = z.strictObject({
  /** The skill whose query it is. */
  owner: z.string(),
  query: z.string(),
  should_trigger: z.boolean(),
  run_number: z.number().int().positive(),
  /** The catalog skill that loaded first, by its own name, or "none". */
  fired: z.string(),
  /** Every catalog skill that loaded, in order. */
  loaded: z.array(z.string()),
  outcome: z.string(),
  error: z.string().optional(),
  /** The run folder, relative to the catalog folder. */
  dir: z.string(),
  /** What the run cost (0 when simulated or reused); absent when unknown. */
  cost_usd: z.number().nonnegative().optional(),
  /** Copied from the result store: where it was made, and what it cost then. */
  reused_from: ReusedFrom.optional(),
  /**
   * `--screen replay`: "replay" when the first turn of the agent's captured first request, sent with this query,
   * decided the run; "agent" when the agent made it. Absent: a run made without `--screen`.
   */
  decided_by: z.enum(["replay", "agent"]).optional(),
  /** `--screen-verify`: a replayed run also made by the agent, whose answer is kept; whether the two agreed. */
  replay_agreed: z.boolean().optional(),
});
export type CatalogRun = z.infer<typeof CatalogRun>;

/** Two skills that take each other's queries: how many runs each way, with the queries. */
export const CatalogPair = z.strictObject({
  skills: z.tuple([z.string(), z.string()]),
  /** Runs of one's should-trigger queries that the other took, both ways. */
  runs: z.number().int().positive(),
  taken: z.array(
    z.strictObject({
      owner: z.string(),
      fired: z.string(),
      runs: z.number().int().positive(),
      queries: z.array(z.string()),
    }),
  ),
});
export type CatalogPair = z.infer<typeof CatalogPair>;

// catalog-<N>/catalog.json: the routing matrix of skills installed together.
export const CatalogResults = z.strictObject({
  dir: z.string(),
  agent: z.strictObject({ name: z.string(), version: z.string().optional(), mode: z.string().optional() }),
  model: z.string().optional(),
  simulated: z.boolean(),
  /** Whether every run was inside the OS sandbox (`--sandbox`). */
  sandbox: z.boolean().optional(),
  runs_per_query: z.number().int().positive(),
  skills: z.array(CatalogSkill),
  /** Owner row (a skill's name, or `not:<skill>` for its should-not-trigger queries) → fired skill or "none" → runs. */
  confusion: z.record(z.string(), z.record(z.string(), z.number().int().nonnegative())),
  /** Pairs of skills that take each other's queries, most runs first. */
  pairs: z.array(CatalogPair),
  runs: z.array(CatalogRun),
  /** Runs that could not be scored (timeouts, crashes): left out of the matrix. */
  errors: z.number().int().nonnegative(),
  notes: z.array(z.string()),
  /** Set when this catalog ran one part of the plan (`--shard i/n`): its matrix covers only that part's runs. */
  shard: ShardInfo.optional(),
  /**
   * Where every run was made, when not in the clean room: the project copied (`--project-root`), the skills installed
   * beside the library as rivals (`--installed`), the prior conversation continued (`--context`).
   */
  conditions: RunConditions.optional(),
  /** `--screen replay`: how many runs replay decided and how many the agent, as in trigger-results.json. */
  screen: TriggerResults.shape.screen,
});
export type CatalogResults = z.infer<typeof CatalogResults>;

// catalog-<N>/catalog-plan.json: what a catalog was asked to run; an unfinished one of the same plan is resumed.
export const CatalogPlan = z.strictObject({
  dir: z.string(),
  /** Each skill's name and the hash of its folder's content. */
  skills: z.array(z.strictObject({ name: z.string(), hash: z.string() })),
  runs_per_query: z.number().int().positive(),
  only: z.array(z.string()).optional(),
  agent: z.string(),
  model: z.string().optional(),
  timeout_ms: z.number().int().positive(),
  shard: ShardInfo.optional(),
  /** `--installed`: the folders whose every skill was installed beside the library, as rivals. */
  installed: z.array(z.string()).optional(),
  /** `--project-root`: each run started in a copy of this project, whose copy had this tree hash. */
  project_root: z.string().optional(),
  project_hash: z.string().optional(),
  /** `--context`: each run continued the prior conversation of this file, of this content hash. */
  context: z.string().optional(),
  context_hash: z.string().optional(),
  status: z.enum(["running", "interrupted", "complete"]),
});
export type CatalogPlan = z.infer<typeof CatalogPlan>;
