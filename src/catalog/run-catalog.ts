import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { bundledFilesOf } from "../activation/index.js";
import type { Agent } from "../agents/agent.js";
import type { CatalogPlan, CatalogResults, CatalogRun } from "../contracts/catalog.js";
import { defaultUnitCosts } from "../pipeline/estimate.js";
import { createBudget } from "../run/budget.js";
import { type StoreRequest, storeSettings } from "../run/options.js";
import { defaultRetry, type RetryPolicy } from "../run/retry.js";
import { scheduleRuns } from "../run/scheduler.js";
import { writeJson } from "../runlog/atomic-write.js";
import type { Shard } from "../shard/index.js";
import { openStore } from "../store/index.js";
import { checkContextFits, conditionsRecord } from "../triggers/index.js";
import { type ScreenOptions, screenRefused } from "../triggers/replay/index.js";
import { createTempRoot } from "../workspace/temp-root.js";
import { catalogFolder, catalogPlanOf, PLAN_FILE } from "./catalog-folder.js";
import { type CatalogConditionOptions, catalogProject, resolveCatalogConditions } from "./conditions.js";
import type { CatalogMember } from "./discover.js";
import { catalogSpecs, openCatalogLibrary } from "./library.js";
import { catalogMatrix } from "./matrix.js";
import type { CatalogRunSpec } from "./plan.js";
import { renderCatalogMarkdown } from "./render-markdown.js";
import { catalogHooks } from "./reuse-catalog.js";
import { catalogScreenedHooks } from "./screen-catalog.js";

/** Progress of a catalog; every hook optional. */
export interface CatalogReporter {
  onPlan?(info: {
    catalogDir: string;
    total: number;
    skills: number;
    simulated: boolean;
    resumed: boolean;
    shard?: Shard;
    /** Folders inside the catalog folder without a SKILL.md, left out. */
    skipped: string[];
  }): void;
  onRunStart?(spec: CatalogRunSpec): void;
  onRunEnd?(run: CatalogRun): void;
  onWarning?(message: string): void;
}

export interface CatalogOptions extends CatalogConditionOptions {
  /** The folder holding one folder per skill. */
  dir: string;
  /** Where `catalog-<N>/` folders go; default `<dir>-workspace` beside the folder. */
  workspace?: string;
  runs: number;
  /** Ask only these skills' queries (every skill is still installed). */
  only?: string[];
  concurrency: number;
  timeoutSeconds: number;
  model?: string;
  retry?: RetryPolicy;
  signal?: AbortSignal;
  reporter?: CatalogReporter;
  /** Reuse stored runs of an unchanged library, and store new ones (absent: no store). */
  store?: StoreRequest;
  /** Run only this part of the plan (`--shard i/n`); catalog-plan.json and catalog.json record it. */
  shard?: Shard;
  /** Stops scheduling new runs before this much would be spent (`--max-cost`). */
  maxCostUsd?: number;
  /** `--screen replay`: each run first replays the library's captured first request; the agent makes the undecided. */
  screen?: ScreenOptions;
  /** Made after every skill was checked; `suiteDir` is the catalog folder (where a sim-script.json is found). */
  createAgent: (suiteDir: string) => Promise<Agent>;
}

export interface CatalogSummary {
  catalogDir: string;
  resultsFile: string;
  /** catalog.md: the matrix to read. */
  markdownFile: string;
  results: CatalogResults;
  cancelled: boolean;
  /** This catalog folder continued an interrupted one of the same plan. */
  resumed: boolean;
  /** Runs the result store served (free). */
  reused: number;
  /** `--max-cost` held runs back. */
  budgetExhausted: boolean;
}

export const CATALOG_FILE = "catalog.json";

export const CATALOG_MARKDOWN = "catalog.md";

// A catalog run is a trigger run with more skills installed: reckoned at a trigger run's default cost.
export const CATALOG_RUN_USD = defaultUnitCosts.triggerRunUsd;

function notesOf(members: readonly CatalogMember[], errors: number, plan: CatalogPlan): string[] {
  const notes = members
    .filter((m) => m.queries.length === 0)
    .map((m) => `${m.name} has no trigger queries of its own: it took part only as a competitor`);
  if (errors > 0) notes.push(`${errors} run(s) errored and are left out of the matrix`);
  if (plan.shard)
    notes.push(
      `shard ${plan.shard.index}/${plan.shard.count}: the matrix covers only this part's runs; re-run catalog without --shard and with the shards' --cache for the whole one`,
    );
  return notes;
}

/** Installs every skill of the folder together, asks every skill's queries, and writes the routing matrix. */
export async function runCatalog(options: CatalogOptions): Promise<CatalogSummary> {
  const { root, members, skipped, workspace } = await openCatalogLibrary(options);
  // Every condition is checked, and the project copied, before any agent starts.
  const conditions = await resolveCatalogConditions(options, root, members);
  const tempRoot = await createTempRoot("catalog");
  try {
    const project = conditions.project
      ? await catalogProject(
          conditions.project,
          { root, members, workspace, ...(options.store ? { store: options.store } : {}) },
          tempRoot,
        )
      : undefined;
    const agent = await options.createAgent(root);
    if (conditions.context) checkContextFits(agent, conditions.context);
    if (options.screen) screenRefused(agent);
    const plan = await catalogPlanOf(root, members, options, agent.name, {
      installed: conditions.installed,
      installedDirs: conditions.installedDirs,
      ...(project ? { project } : {}),
      ...(conditions.context ? { context: conditions.context } : {}),
    });
    const { dir: catalogDir, resumed } = await catalogFolder(workspace, plan);
    await writeJson(join(catalogDir, PLAN_FILE), plan);
    const bundledFiles = new Map(
      await Promise.all(members.map(async (m) => [m.name, await bundledFilesOf(m.dir)] as const)),
    );
    const { specs } = catalogSpecs(members, options, catalogDir);
    options.reporter?.onPlan?.({
      catalogDir,
      total: specs.length,
      skills: members.length,
      simulated: agent.simulated,
      resumed,
      ...(options.shard ? { shard: options.shard } : {}),
      skipped,
    });
    const context = {
      agent,
      members,
      bundledFiles,
      catalogDir,
      installed: conditions.installed,
      ...(project ? { project } : {}),
      ...(conditions.context ? { context: conditions.context } : {}),
      ...(options.model ? { model: options.model } : {}),
      timeoutMs: options.timeoutSeconds * 1000,
      tempRoot,
      retry: options.retry ?? defaultRetry,
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const budget =
      options.maxCostUsd !== undefined ? createBudget(options.maxCostUsd, CATALOG_RUN_USD) : undefined;
    const store = options.store ? openStore(storeSettings(options.store, workspace)) : undefined;
    const agentHooks = catalogHooks(context, store);
    const screen = options.screen
      ? catalogScreenedHooks({
          ctx: context,
          hooks: agentHooks,
          screen: options.screen,
          ...(store ? { store } : {}),
          concurrency: options.concurrency,
          warn: (message) => options.reporter?.onWarning?.(message),
        })
      : undefined;
    const hooks = screen ?? agentHooks;
    const scheduled = await scheduleRuns(specs, {
      concurrency: screen ? screen.lanes() : options.concurrency,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(budget ? { budget } : {}),
      reporter: {
        ...(options.reporter?.onRunStart ? { onRunStart: options.reporter.onRunStart } : {}),
        ...(options.reporter?.onRunEnd ? { onRunEnd: options.reporter.onRunEnd } : {}),
      },
      finishedEarlier: hooks.finishedEarlier,
      run: hooks.run,
      costOf: (run) => run.cost_usd ?? 0,
    });
    const runs = screen ? await screen.finish(scheduled) : scheduled;
    // Interrupted (Ctrl-C, or --max-cost held runs back): the folder is resumed by the same command.
    const cancelled =
      options.signal?.aborted === true ||
      runs.length < specs.length ||
      runs.some((r) => r.outcome === "cancelled");
    const kept = runs
      .filter((r) => r.outcome !== "cancelled")
      .sort((a, b) => a.dir.localeCompare(b.dir, "en", { numeric: true }));
    const matrix = catalogMatrix(
      members.map((m) => ({ name: m.name, path: m.dir, queries: m.queries.length })),
      kept,
    );
    const results: CatalogResults = {
      dir: root,
      agent: {
        name: agent.name,
        ...(agent.version ? { version: agent.version } : {}),
        ...(agent.mode ? { mode: agent.mode } : {}),
      },
      ...(options.model ? { model: options.model } : {}),
      simulated: agent.simulated,
      sandbox: agent.sandboxed === true,
      runs_per_query: options.runs,
      ...matrix,
      runs: kept,
      notes: notesOf(members, matrix.errors, plan),
      ...(plan.shard ? { shard: plan.shard } : {}),
      ...conditionsRecord(project, conditions.installed, conditions.context),
      ...(screen ? { screen: screen.summary(runs) } : {}),
    };
    const resultsFile = join(catalogDir, CATALOG_FILE);
    const markdownFile = join(catalogDir, CATALOG_MARKDOWN);
    if (!cancelled) {
      await writeJson(resultsFile, results);
      await writeFile(markdownFile, renderCatalogMarkdown(results), "utf8");
    }
    await writeJson(join(catalogDir, PLAN_FILE), {
      ...plan,
      status: cancelled ? "interrupted" : "complete",
    } satisfies CatalogPlan);
    const reused = kept.filter((r) => r.reused_from !== undefined).length;
    return {
      catalogDir,
      resultsFile,
      markdownFile,
      results,
      cancelled,
      resumed,
      reused,
      budgetExhausted: budget?.exhausted === true,
    };
  } finally {
    await rm(tempRoot, {
      recursive: true,
      // Stryker disable next-line BooleanLiteral: equivalent, the temp root always exists here (made above, swept only when its owner is dead)
      force: true,
    });
  }
}
