import type { TriggerQueryResult } from "../contracts/trigger-results.js";
import type { ConcurrencyLimit } from "../run/adaptive-limit.js";
import { storeSettings } from "../run/options.js";
import { scheduleRuns } from "../run/scheduler.js";
import { partition } from "../shard/index.js";
import { openStore } from "../store/index.js";
import type { Suite } from "../suite/index.js";
import { planTriggerRuns, type TriggerRunSpec } from "./plan.js";
import { type ScreenSummary, screenedHooks } from "./replay/index.js";
import { triggerHooksWithStore } from "./reuse-trigger.js";
import {
  executeTriggerRun,
  finishedTriggerRun,
  resumeFinishedTriggerRun,
  type TriggerContext,
  type TriggerRunRecord,
} from "./run-trigger.js";
import { scoreQuery } from "./score.js";
import { settleSchedule } from "./settle.js";
import type { TriggerOptions } from "./trigger-options.js";

/** A side-by-side trigger eval's clean-room runs go here, inside `triggers/`. */
export const CLEAN_DIR = "clean";

/** The clean room: the same agent and skill, with no project, no library installed and no prior conversation. */
export function cleanContext(context: TriggerContext): TriggerContext {
  const { project: _project, installed: _installed, context: _history, ...rest } = context;
  return { ...rest, installed: [] };
}

/** A trigger run's identity for sharding: its query (place and text) and run number. */
export function triggerRunIdentity(spec: TriggerRunSpec): string {
  return JSON.stringify(["query", spec.queryIndex, spec.query, spec.runNumber]);
}

// The runs an earlier attempt at this iteration finished: they count even where their query settled before them.
async function finishedOnDisk(specs: readonly TriggerRunSpec[]): Promise<Set<TriggerRunSpec>> {
  const found = await Promise.all(specs.map(async (s) => ((await finishedTriggerRun(s)) ? [s] : [])));
  return new Set(found.flat());
}

export interface TriggerSetInput {
  options: TriggerOptions;
  suite: Suite;
  skillName: string;
  /** Where this set's `query-<i>/run-<k>/` folders go. */
  triggersDir: string;
  iterationDir: string;
  resumed: boolean;
  context: TriggerContext;
  description: string;
  allRuns: boolean;
  limit: ConcurrencyLimit;
  agentSimulated: boolean;
  workspace: string;
  /** Side by side: which of the two sets this is. */
  condition?: "clean" | "real";
}

/** Runs every query of the suite under one set of conditions, each query until its verdict settles, and scores them. */
export async function runTriggerSet(input: TriggerSetInput): Promise<{
  records: TriggerRunRecord[];
  queryResults: TriggerQueryResult[];
  cancelled: boolean;
  screen?: ScreenSummary;
}> {
  const { options, suite, triggersDir, context } = input;
  const planned = planTriggerRuns(suite.triggers, options.runs, triggersDir, input.skillName);
  const specs = options.shard ? partition(planned, triggerRunIdentity, options.shard) : planned;
  options.reporter?.onPlan?.({
    triggersDir,
    total: specs.length,
    resumed: input.resumed,
    simulated: input.agentSimulated,
    ...(input.condition ? { condition: input.condition } : {}),
  });
  const store = options.store ? openStore(storeSettings(options.store, input.workspace)) : undefined;
  const agentHooks = store
    ? triggerHooksWithStore(context, {
        store,
        iterationDir: input.iterationDir,
        description: input.description,
      })
    : {
        finishedEarlier: resumeFinishedTriggerRun,
        run: (spec: TriggerRunSpec) => executeTriggerRun(spec, context),
      };
  const screen = options.screen
    ? screenedHooks({
        ctx: context,
        hooks: agentHooks,
        screen: options.screen,
        description: input.description,
        iterationDir: input.iterationDir,
        ...(store ? { store } : {}),
        concurrency: () => input.limit.current(),
        warn: (message) => options.reporter?.onWarning?.(message),
      })
    : undefined;
  const hooks = screen ?? agentHooks;
  const settling = input.allRuns
    ? undefined
    : settleSchedule({
        specs,
        rules: suite.triggers.map((t) => ({
          shouldTrigger: t.should_trigger,
          threshold: options.threshold,
          maxRuns: options.runs,
        })),
        kept: input.resumed ? await finishedOnDisk(specs) : new Set<TriggerRunSpec>(),
        finishedEarlier: hooks.finishedEarlier,
        onDropped: (spec) => options.reporter?.onRunDropped?.(spec),
      });
  const scheduled = await scheduleRuns(specs, {
    concurrency: options.concurrency,
    // Screened, the scheduler holds more runs than agents at once: most of them wait on a replay, not a process.
    limit: screen ? { current: screen.lanes } : input.limit,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.budget ? { budget: options.budget } : {}),
    reporter: {
      ...(options.reporter?.onRunStart ? { onRunStart: options.reporter.onRunStart } : {}),
      onRunEnd: (record) => {
        settling?.ended(record);
        options.reporter?.onRunEnd?.(record);
      },
    },
    finishedEarlier: settling?.finishedEarlier ?? hooks.finishedEarlier,
    ...(settling ? { pick: settling.pick, skip: settling.skip } : {}),
    run: hooks.run,
    costOf: (record) => record.record.cost_usd ?? 0,
  });
  const records = screen ? await screen.finish(scheduled) : scheduled;
  // A run is cancelled only by options.signal today (its agent is stopped through it), so the signal tells of those
  // too. A cancelled run among the records is still checked: a new way to cancel one must not mark complete a set
  // whose runs are missing.
  // Stryker disable all: equivalent while only options.signal cancels a run (a guard, see above)
  const cancelledRun = records.some((r) => r.outcome === "cancelled");
  // Stryker restore all
  const cancelled = options.signal?.aborted === true || options.budget?.exhausted === true || cancelledRun;
  const scored = records.filter((r) => r.outcome !== "cancelled");
  const queryResults = suite.triggers.map((query, i) =>
    scoreQuery(
      query,
      scored.filter((r) => r.queryIndex === i),
      options.threshold,
    ),
  );
  return { records, queryResults, cancelled, ...(screen ? { screen: screen.summary(records) } : {}) };
}
