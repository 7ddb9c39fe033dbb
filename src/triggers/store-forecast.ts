import { readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { TriggerQuery } from "../contracts/evals.js";
import { TriggerRun } from "../contracts/run-record.js";
import { defaultWorkspace } from "../run/iteration.js";
import { runInputs, storeSettings } from "../run/options.js";
import type { StoreForecast } from "../run/store-forecast.js";
import { partition } from "../shard/index.js";
import { openStore, type ResultStore, type StoredRun } from "../store/index.js";
import { createTempRoot } from "../workspace/temp-root.js";
import { loadConditionSkills } from "./conditions.js";
import { loadContext } from "./context.js";
import { planTriggerRuns } from "./plan.js";
import { triggerRunKeys } from "./reuse-trigger.js";
import { projectCondition, type TriggerOptions, triggerRunIdentity } from "./run-triggers.js";
import { isSettled, type QueryTally } from "./settle.js";
import { withSuiteConditions } from "./suite-options.js";

async function storedOutcome(stored: StoredRun): Promise<{ triggered: boolean; error: boolean }> {
  const parsed = TriggerRun.safeParse(
    JSON.parse(await readFile(join(stored.filesDir, "trigger.json"), "utf8")),
  );
  if (!parsed.success)
    return {
      // Stryker disable next-line BooleanLiteral: equivalent, an errored run's verdict is never counted
      triggered: false,
      error: true,
    };
  return { triggered: parsed.data.triggered, error: parsed.data.error !== undefined };
}

type ForecastOptions = Omit<TriggerOptions, "reporter" | "iterationDir">;

/**
 * Which trigger runs the store holds. Each query's runs are walked in order as the scheduler would take them: a
 * stored verdict is counted as served, and once the served ones settle the query, its other runs are not needed.
 * A run the store lacks counts as one to make, with no outcome, so what is left is the most it could be. Side by side
 * (`--conditions clean,real`, or the suite's `side_by_side`), the clean room's runs are counted too, under their own keys.
 */
export async function forecastTriggerRuns(given: ForecastOptions): Promise<StoreForecast> {
  const { skill, suite } = await runInputs(given, "triggers");
  // The suite's "conditions" fill in what the command line left out, as the trigger runs would.
  const options = await withSuiteConditions(given, suite);
  const sets = options.conditions ?? { clean: false, real: true };
  // A shard forecasts only its own share of the plan, every run of it (a shard cannot tell when a query settles).
  const shard = options.shard;
  const mine = shard
    ? new Set(
        partition(
          // Stryker disable next-line StringLiteral: equivalent, a run's identity holds no folder
          planTriggerRuns(suite.triggers, options.runs, "", skill.name),
          triggerRunIdentity,
          shard,
        ).map((r) => `${r.queryIndex}/${r.runNumber}`),
      )
    : undefined;
  const perSet = mine ? mine.size : suite.triggers.length * options.runs;
  const runs = perSet * ((sets.clean ? 1 : 0) + (sets.real ? 1 : 0));
  const workspace = resolve(options.workspace ?? defaultWorkspace(skill.dir, skill.name));
  const store = options.store ? openStore(storeSettings(options.store, workspace)) : undefined;
  const none = { runs, served: 0, toRun: runs, judgeServed: 0, judgeToRun: 0, workspace };
  if (!store?.reads || runs === 0) return none;
  const { companions, installed } = await loadConditionSkills(options, skill.name);
  // The project's key is the hash of the copy a run would start in: made, hashed and removed.
  const tempRoot = options.project && sets.real ? await createTempRoot("triggers") : undefined;
  const project = tempRoot
    ? await projectCondition(options, { skill, suite, workspace }, tempRoot).finally(() =>
        rm(tempRoot, { recursive: true, force: true }),
      )
    : undefined;
  const context = options.context && sets.real ? await loadContext(options.context) : undefined;
  const agent = await options.createAgent({ skill, suite });
  const common = {
    agent,
    skillName: skill.name,
    companions,
    timeoutMs: options.timeoutSeconds * 1000,
    ...(options.model ? { model: options.model } : {}),
  };
  const description = options.description ?? skill.description;
  // The clean room: no project, no library installed, no prior conversation (the --with-skills stay).
  const keys = [
    ...(sets.clean ? [triggerRunKeys(common, description)] : []),
    ...(sets.real
      ? [
          triggerRunKeys(
            {
              ...common,
              installed,
              ...(project ? { project: { hash: project.hash } } : {}),
              ...(context ? { context: { hash: context.hash } } : {}),
            },
            description,
          ),
        ]
      : []),
  ];
  let served = 0;
  let toRun = 0;
  for (const keyOf of keys) {
    const counted = await forecastSet(keyOf, store, suite.triggers, options, mine);
    served += counted.served;
    toRun += counted.toRun;
  }
  return { ...none, served, toRun, storeDir: store.dir };
}

// One condition set's runs: served by the store, or to make.
async function forecastSet(
  keyOf: ReturnType<typeof triggerRunKeys>,
  store: ResultStore,
  queries: readonly TriggerQuery[],
  options: Pick<ForecastOptions, "runs" | "threshold" | "allRuns">,
  mine: Set<string> | undefined,
): Promise<{ served: number; toRun: number }> {
  let served = 0;
  let toRun = 0;
  for (const [queryIndex, query] of queries.entries()) {
    const rule = { shouldTrigger: query.should_trigger, threshold: options.threshold, maxRuns: options.runs };
    const tally: QueryTally = { done: 0, scored: 0, triggers: 0 };
    for (let runNumber = 1; runNumber <= options.runs; runNumber++) {
      if (mine && !mine.has(`${queryIndex}/${runNumber}`)) continue;
      if (!options.allRuns && !mine && isSettled(tally, rule)) break;
      const stored = await store.get("trigger-run", await keyOf({ query: query.query, runNumber }));
      if (!stored) {
        toRun++;
        continue;
      }
      served++;
      const outcome = await storedOutcome(stored);
      tally.done++;
      if (!outcome.error) {
        tally.scored++;
        if (outcome.triggered) tally.triggers++;
      }
    }
  }
  return { served, toRun };
}
