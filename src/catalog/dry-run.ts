import type { Agent } from "../agents/agent.js";
import type { RunConditions } from "../contracts/trigger-results.js";
import { defaultUnitSeconds, estimateWallSeconds, simulatedUnitSeconds } from "../pipeline/estimate.js";
import { priceStorePlan, type StorePlan } from "../pipeline/store-plan.js";
import { storeSettings } from "../run/options.js";
import type { StoreForecast } from "../run/store-forecast.js";
import type { Shard } from "../shard/index.js";
import { openStore } from "../store/index.js";
import { checkContextFits, conditionsRecord } from "../triggers/index.js";
import { type ScreenForecast, screenForecast } from "../triggers/replay/index.js";
import { catalogFolderFor, catalogPlanOf, type PlannedConditions } from "./catalog-folder.js";
import { catalogProjectHash, resolveCatalogConditions } from "./conditions.js";
import { catalogSpecs, openCatalogLibrary } from "./library.js";
import type { CatalogRunSpec } from "./plan.js";
import { catalogRunKeys, finishedCatalogRun } from "./reuse-catalog.js";
import { CATALOG_RUN_USD, type CatalogOptions } from "./run-catalog.js";

/** What `catalog --dry-run` says: the plan, what is already done or stored, and roughly what the rest costs. */
export interface CatalogDryRun {
  dir: string;
  /** The folder the catalog would write, and whether it continues an unfinished one of the same plan. */
  catalogDir: string;
  resumes: boolean;
  skills: { name: string; queries: number }[];
  /** Folders inside `dir` without a SKILL.md: left out. */
  skipped: string[];
  /** Queries asked (every skill's, or `--only`'s), each `runsPerQuery` times. */
  queries: number;
  runsPerQuery: number;
  /** Runs this catalog makes: the whole plan, or this shard's share of it. */
  runs: number;
  /** With `--shard i/n`: the whole plan's runs. */
  shard?: Shard & { runs: number };
  /** Runs the unfinished folder already holds (kept by the resume). */
  finished: number;
  /** What the result store serves of the rest (absent: not read, or the agent could not be had). */
  store?: StorePlan;
  /** The rough cost of this catalog's runs, were none of them done or stored (the store's own lines say the rest). */
  costUsd: number;
  /** Runs left to make, and their rough wall time. */
  toRun: number;
  runUsd: number;
  wallSeconds: number;
  runSeconds: number;
  concurrency: number;
  simulated: boolean;
  /** `--screen replay`: one capture of the library's first request, a replay per run to make, agent runs at most. */
  screen?: ScreenForecast;
  /** Where the runs would be made, when not in the clean room (as catalog.json would say it). */
  conditions?: RunConditions;
}

async function forecastStore(
  specs: readonly CatalogRunSpec[],
  options: CatalogOptions,
  ctx: Parameters<typeof catalogRunKeys>[0],
  workspace: string,
): Promise<StoreForecast> {
  const store = options.store ? openStore(storeSettings(options.store, workspace)) : undefined;
  const none = {
    runs: specs.length,
    served: 0,
    toRun: specs.length,
    judgeServed: 0,
    judgeToRun: 0,
    workspace,
  };
  if (!store?.reads) return none;
  const keyOf = catalogRunKeys(ctx);
  let served = 0;
  for (const spec of specs) if (await store.get("catalog-run", await keyOf(spec))) served++;
  return { ...none, served, toRun: specs.length - served, storeDir: store.dir };
}

/**
 * The catalog `runCatalog` would make, found as it would find it (the same folder, the same store keys), writing
 * nothing and starting no agent: the agent is only asked for its identity, for the keys.
 */
export async function planCatalog(options: CatalogOptions, simulated: boolean): Promise<CatalogDryRun> {
  const { root, members, skipped, workspace } = await openCatalogLibrary(options);
  // The conditions are checked as a catalog checks them; the project is copied and hashed, for the plan and the keys.
  const given = await resolveCatalogConditions(options, root, members);
  const project = given.project
    ? await catalogProjectHash(given.project, {
        root,
        members,
        workspace,
        ...(options.store ? { store: options.store } : {}),
      })
    : undefined;
  const conditions: PlannedConditions = {
    installed: given.installed,
    installedDirs: given.installedDirs,
    ...(project ? { project } : {}),
    ...(given.context ? { context: given.context } : {}),
  };
  // An agent that cannot be had (not installed) leaves the store's forecast out; the credentials check says why.
  const agent: Agent | undefined = await options.createAgent(root).catch(() => undefined);
  if (given.context && agent) checkContextFits(agent, given.context);
  // Without an agent there is no plan to look a folder up by: the folder is named, not found.
  const folder = agent
    ? await catalogFolderFor(workspace, await catalogPlanOf(root, members, options, agent.name, conditions))
    : undefined;
  const catalogDir = folder?.dir ?? `${workspace}/catalog-<N>`;
  const { planned, specs } = catalogSpecs(members, options, catalogDir);
  // A resumed folder keeps the runs it finished; only the others are looked up in the store, or made.
  const done = folder?.resumed ? await Promise.all(specs.map((s) => finishedCatalogRun(s))) : [];
  const left = specs.filter((_, i) => done[i] === undefined);
  const finished = specs.length - left.length;
  const runUsd = simulated ? 0 : CATALOG_RUN_USD;
  const units = { agentRunUsd: 0, triggerRunUsd: runUsd, judgeCallUsd: 0 };
  const forecast = agent
    ? await forecastStore(
        left,
        options,
        {
          agent,
          members,
          ...conditions,
          timeoutMs: options.timeoutSeconds * 1000,
          ...(options.model ? { model: options.model } : {}),
        },
        workspace,
      )
    : undefined;
  const store = forecast ? priceStorePlan({ catalogRuns: forecast }, units) : undefined;
  const toRun = forecast ? forecast.toRun : left.length;
  const runSeconds = (simulated ? simulatedUnitSeconds : defaultUnitSeconds).triggerRun;
  const asked = members.filter((m) => !options.only || options.only.includes(m.name));
  return {
    dir: root,
    catalogDir,
    resumes: folder?.resumed === true,
    skills: members.map((m) => ({ name: m.name, queries: m.queries.length })),
    skipped,
    queries: asked.reduce((n, m) => n + m.queries.length, 0),
    runsPerQuery: options.runs,
    runs: specs.length,
    ...(options.shard ? { shard: { ...options.shard, runs: planned.length } } : {}),
    finished,
    ...(store ? { store } : {}),
    costUsd: specs.length * runUsd,
    toRun,
    runUsd,
    wallSeconds: estimateWallSeconds(
      { agentRuns: 0, judgeCalls: 0, triggerRuns: toRun },
      options.concurrency,
      { ...defaultUnitSeconds, triggerRun: runSeconds },
    ),
    runSeconds,
    concurrency: options.concurrency,
    simulated,
    ...(options.screen && toRun > 0 ? { screen: screenForecast({ runs: toRun, keys: 1 }) } : {}),
    ...conditionsRecord(project, given.installed, given.context),
  };
}
