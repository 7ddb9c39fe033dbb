import { basename, dirname, join, relative } from "node:path";
import { CatalogRun } from "../contracts/catalog.js";
import type { ReusedFrom } from "../contracts/store-entry.js";
import { agentKeyParts } from "../run/reuse.js";
import { readJsonIfPresent, writeJson } from "../runlog/atomic-write.js";
import { copyStoredRun, type ResultStore, storeKey } from "../store/index.js";
import { conditionKeyParts, type KeyedConditions } from "../triggers/index.js";
import type { CatalogMember } from "./discover.js";
import type { CatalogRunSpec } from "./plan.js";
import { type CatalogContext, executeCatalogRun } from "./run-catalog-query.js";

export const CATALOG_RUN_FILE = "catalog-run.json";

/** The record of a run finished in an earlier attempt at this catalog folder; a cancelled run is run again. */
export async function finishedCatalogRun(spec: CatalogRunSpec): Promise<CatalogRun | undefined> {
  const raw = (await readJsonIfPresent(join(spec.runDir, CATALOG_RUN_FILE))) as
    | Record<string, unknown>
    | undefined;
  if (!raw) return undefined;
  const { install_names: _, ...record } = raw;
  const parsed = CatalogRun.safeParse(record);
  if (!parsed.success || parsed.data.query !== spec.query || parsed.data.outcome === "cancelled")
    return undefined;
  return parsed.data;
}

/**
 * Every skill's name and description (all a listing shows), in name order whatever the folders' order. Names are
 * unique in a library (discovery refuses two of one name).
 */
export function libraryKeyPart(members: readonly CatalogMember[]): { name: string; description: string }[] {
  const described = new Map(members.map((m) => [m.name, m.description]));
  return [...described.keys()].sort().map((name) => ({ name, description: described.get(name)! }));
}

/**
 * The key of one catalog run. Which skill fires first depends on the agent, the model, the query and the name and
 * description of every skill installed together (the run stops at the first load, so no body is read): changing
 * one skill's description changes the key of every run. The conditions it ran under (the rivals installed beside,
 * the project, the prior conversation) are keyed as a trigger run's are; a run without them has none of these parts.
 */
export function catalogRunKeys(
  ctx: Pick<CatalogContext, "agent" | "model" | "members" | "timeoutMs"> & KeyedConditions,
) {
  const common = (async () => ({
    kind: "catalog-run",
    ...(await agentKeyParts(ctx)),
    timeout_ms: ctx.timeoutMs,
    library: libraryKeyPart(ctx.members),
    ...(await conditionKeyParts(ctx)),
  }))();
  return async (spec: CatalogRunSpec) =>
    storeKey({
      ...(await common),
      owner: spec.owner,
      query: spec.query,
      should_trigger: spec.shouldTrigger,
      run: spec.runNumber,
    });
}

/** The scheduler's hooks for a catalog: a run finished earlier in this folder is kept, else one stored is reused. */
export function catalogHooks(ctx: CatalogContext, store: ResultStore | undefined) {
  const keyOf = catalogRunKeys(ctx);
  const source = (spec: CatalogRunSpec, cost: number): ReusedFrom => ({
    iteration: basename(ctx.catalogDir),
    run: relative(ctx.catalogDir, spec.runDir).replaceAll("\\", "/"),
    workspace: dirname(ctx.catalogDir),
    cost_usd: cost,
  });
  return {
    async finishedEarlier(spec: CatalogRunSpec): Promise<CatalogRun | undefined> {
      const earlier = await finishedCatalogRun(spec);
      if (earlier || !store) return earlier;
      const stored = await store.get("catalog-run", await keyOf(spec));
      if (!stored) return undefined;
      await copyStoredRun(stored, spec.runDir);
      const file = join(spec.runDir, CATALOG_RUN_FILE);
      const record = (await readJsonIfPresent(file)) as Record<string, unknown>;
      await writeJson(file, {
        ...record,
        dir: relative(ctx.catalogDir, spec.runDir).replaceAll("\\", "/"),
        cost_usd: 0,
        reused_from: stored.entry.source,
      });
      return finishedCatalogRun(spec);
    },
    async run(spec: CatalogRunSpec): Promise<CatalogRun> {
      const run = await executeCatalogRun(spec, ctx);
      if (!store || run.error !== undefined || ctx.signal?.aborted) return run;
      await store.put("catalog-run", await keyOf(spec), {
        runDir: spec.runDir,
        source: source(spec, run.cost_usd ?? 0),
      });
      return run;
    },
  };
}
