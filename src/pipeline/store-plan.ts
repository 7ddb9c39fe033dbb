import type { Agent } from "../agents/agent.js";
import type { EvalOptions } from "../run/run-evals.js";
import { forecastEvalRuns, type StoreForecast } from "../run/store-forecast.js";
import type { Skill } from "../skill/index.js";
import type { Suite } from "../suite/index.js";
import type { TriggerOptions } from "../triggers/run-triggers.js";
import { forecastTriggerRuns } from "../triggers/store-forecast.js";
import { unitCostsFromHistory } from "./cost-history.js";
import type { UnitCosts } from "./estimate.js";
import type { PipelineForecastOptions } from "./options.js";

/** What the result store serves of a planned command, and what the rest would cost. */
export interface StorePlan {
  evalRuns?: StoreForecast;
  triggerRuns?: StoreForecast;
  /** `catalog --dry-run`'s runs: priced as trigger runs (a catalog run is one with more skills installed). */
  catalogRuns?: StoreForecast;
  /** The estimated cost of what the store does not serve (trigger runs at their most). */
  costUsd: number;
  /** What the served runs would cost if they were made now. */
  savedUsd: number;
}

/** Prices a forecast at the unit costs: the served runs are free, the rest cost what a run costs. */
export function priceStorePlan(
  forecasts: { evalRuns?: StoreForecast; triggerRuns?: StoreForecast; catalogRuns?: StoreForecast },
  u: UnitCosts,
): StorePlan {
  const price = (f: StoreForecast | undefined, runUsd: number, side: "served" | "toRun") =>
    f
      ? (side === "served" ? f.served : f.toRun) * runUsd +
        (side === "served" ? f.judgeServed : f.judgeToRun) * u.judgeCallUsd
      : 0;
  return {
    ...forecasts,
    costUsd:
      price(forecasts.evalRuns, u.agentRunUsd, "toRun") +
      price(forecasts.triggerRuns, u.triggerRunUsd, "toRun") +
      price(forecasts.catalogRuns, u.triggerRunUsd, "toRun"),
    savedUsd:
      price(forecasts.evalRuns, u.agentRunUsd, "served") +
      price(forecasts.triggerRuns, u.triggerRunUsd, "served") +
      price(forecasts.catalogRuns, u.triggerRunUsd, "served"),
  };
}

/** What `run --dry-run` finds in the store for the artifact evals and trigger evals it would run. */
export async function forecastPipeline(
  options: PipelineForecastOptions,
  inputs: { skill: Skill; suite: Suite },
  unitCosts: UnitCosts,
): Promise<StorePlan> {
  let agent: Promise<Agent> | undefined;
  // Only the agent's identity is asked for (its name, version and mode for the keys): no judge, no model call.
  const createAgent = () => {
    agent ??= options.createAgent({ ...inputs, wantsJudge: false });
    return agent;
  };
  const common = {
    skillPath: options.skillPath,
    inputs,
    ...(options.workspace ? { workspace: options.workspace } : {}),
    ...(options.projectRoot ? { projectRoot: options.projectRoot } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.shard ? { shard: options.shard } : {}),
    concurrency: options.concurrency,
    createAgent,
  };
  const evalRuns = inputs.suite.evalsFile
    ? await forecastEvalRuns(
        {
          ...common,
          runs: options.runs,
          baseline: options.baseline,
          timeoutSeconds: options.timeoutSeconds,
          ...(options.outputLimits ? { outputLimits: options.outputLimits } : {}),
          ...(options.only ? { only: options.only } : {}),
        },
        options.grade,
      )
    : undefined;
  const triggerRuns =
    inputs.suite.triggersFile && inputs.suite.triggers.length > 0
      ? await forecastTriggerRuns({
          ...common,
          runs: options.triggerRuns,
          threshold: options.threshold,
          timeoutSeconds: options.triggerTimeoutSeconds,
          // Stryker disable next-line ConditionalExpression: equivalent, the forecast reads an undefined description as none given (the skill's own)
          ...(options.description !== undefined ? { description: options.description } : {}),
          ...(options.withSkills ? { withSkills: options.withSkills } : {}),
          ...(options.installed ? { installed: options.installed } : {}),
          ...(options.projectRoot ? { project: options.projectRoot } : {}),
          ...(options.context ? { context: options.context } : {}),
          ...(options.conditions ? { conditions: options.conditions } : {}),
          ...(options.allRuns ? { allRuns: true } : {}),
        })
      : undefined;
  return priceStorePlan(
    { ...(evalRuns ? { evalRuns } : {}), ...(triggerRuns ? { triggerRuns } : {}) },
    unitCosts,
  );
}

const free: UnitCosts = { agentRunUsd: 0, triggerRunUsd: 0, judgeCallUsd: 0 };

const unitCostsOf = (f: StoreForecast, simulated: boolean) =>
  simulated ? Promise.resolve(free) : unitCostsFromHistory(f.workspace);

/** What `eval --dry-run` finds in the store, and what the rest would cost. */
export async function planEvalsWithStore(
  options: Omit<EvalOptions, "reporter" | "afterRun" | "afterEarlierRun">,
  grade: boolean,
  simulated: boolean,
): Promise<StorePlan> {
  const evalRuns = await forecastEvalRuns(options, grade);
  return priceStorePlan({ evalRuns }, await unitCostsOf(evalRuns, simulated));
}

/** What `triggers --dry-run` finds in the store, and what the rest would cost (trigger runs at their most). */
export async function planTriggersWithStore(
  options: Omit<TriggerOptions, "reporter" | "iterationDir">,
  simulated: boolean,
): Promise<StorePlan> {
  const triggerRuns = await forecastTriggerRuns(options);
  return priceStorePlan({ triggerRuns }, await unitCostsOf(triggerRuns, simulated));
}
