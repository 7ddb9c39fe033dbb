import { z } from "zod";

/** The version of the store's record format; an entry written by another one is ignored (and re-run). */
export const STORE_FORMAT = 1;

/** Where a stored run came from, and what it cost then: a reused run is marked with it and costs nothing now. */
export const ReusedFrom = z.looseObject({
  /** `iteration-<N>` */
  iteration: z.string(),
  /** The run folder inside that iteration, e.g. `eval-1/without_skill/run-1` or `triggers/query-2/run-1`. */
  run: z.string(),
  /** The workspace holding that iteration. */
  workspace: z.string(),
  /** What the run cost when it was made: what reusing it saved. */
  cost_usd: z.number().nonnegative(),
});
export type ReusedFrom = z.infer<typeof ReusedFrom>;

export const StoredFile = z.looseObject({
  path: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

// entry.json: one finished run kept in the result store (`.skillgym-cache/`), its files under `run/`.
export const StoreEntry = z.looseObject({
  format: z.literal(STORE_FORMAT),
  kind: z.enum(["eval-run", "trigger-run", "catalog-run", "replay-capture"]),
  key: z.string(),
  created_at: z.string(),
  source: ReusedFrom,
  /** The key of the expectations and judge its grading.json was made with; absent when it has none. */
  grading_key: z.string().optional(),
  files: z.array(StoredFile),
});
export type StoreEntry = z.infer<typeof StoreEntry>;
