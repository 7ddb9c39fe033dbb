import type { Agent } from "../agents/agent.js";
import type { TriggerQuery } from "../contracts/evals.js";
import type { OptimizeIteration, OptimizeSubsetScore } from "../contracts/optimize-results.js";
import { SkillgymError } from "../errors.js";
import type { Budget } from "../run/budget.js";
import type { StoreRequest } from "../run/options.js";
import type { RetryPolicy } from "../run/retry.js";
import { runTriggers, type TriggerReporter } from "../triggers/index.js";
import type { ScreenOptions } from "../triggers/replay/index.js";
import type { OptimizeConditions } from "./conditions.js";
import { subsetScore } from "./decide.js";
import { testFirstRunScreened } from "./screen.js";
import type { QuerySplit } from "./split.js";

export interface EvaluationSetup {
  skillPath: string;
  evalsPath?: string;
  projectRoot?: string;
  /** Where every trigger run is made (`--project-root`, `--installed`, `--context`, the suite's `"conditions"`). */
  conditions: OptimizeConditions;
  queries: readonly TriggerQuery[];
  split: QuerySplit;
  runs: number;
  threshold: number;
  concurrency: number;
  timeoutSeconds: number;
  model?: string;
  retry?: RetryPolicy;
  signal?: AbortSignal;
  budget?: Budget;
  reporter?: TriggerReporter;
  /** The result store, its folder settled: a description evaluated before is served from it. */
  store?: StoreRequest & { dir: string };
  agent: () => Promise<Agent>;
  /**
   * Replay in front of the agent for the train queries' runs, and for the first run of each test query when there
   * are enough runs for the agents' to outvote it (`testFirstRunScreened`); the other test runs are the agent's.
   */
  screen?: ScreenOptions;
}

/** How the train runs of one evaluation were decided, when replay screened them. */
export type EvaluationReplay = NonNullable<OptimizeIteration["replay"]>;

export interface Evaluation {
  /** Null when the evaluation was stopped before it finished. */
  train: OptimizeSubsetScore | null;
  test: OptimizeSubsetScore | null;
  /** Runs started by this evaluation. */
  triggerRuns: number;
  /** Runs an earlier, interrupted attempt at this evaluation finished, reused as they are. */
  reusedRuns: number;
  /** Of the started and the reused runs. */
  costUsd: number;
  replay?: EvaluationReplay;
  stopped?: "budget" | "cancelled";
}

/**
 * Runs every train and test query with one description in one pool (the improver only ever gets the train side),
 * writing the runs under `iterationDir/triggers/`.
 */
export async function evaluateDescription(
  setup: EvaluationSetup,
  iterationDir: string,
  description: string | undefined,
): Promise<Evaluation> {
  const { project, installed, context } = setup.conditions;
  const real = project !== undefined || installed !== undefined || context !== undefined;
  const firstRunOf = setup.screen && testFirstRunScreened(setup.runs) ? setup.split.test : undefined;
  const summary = await runTriggers({
    skillPath: setup.skillPath,
    ...(setup.evalsPath ? { evalsPath: setup.evalsPath } : {}),
    ...(setup.projectRoot ? { projectRoot: setup.projectRoot } : {}),
    // A condition or description left undefined is one not given.
    project,
    installed,
    context,
    // The conditions alone, never the clean room beside them: the suite's side_by_side is not followed here.
    ...(real ? { conditions: { clean: false, real: true } } : {}),
    iterationDir,
    runs: setup.runs,
    threshold: setup.threshold,
    concurrency: setup.concurrency,
    timeoutSeconds: setup.timeoutSeconds,
    ...(setup.model ? { model: setup.model } : {}),
    description,
    ...(setup.retry ? { retry: setup.retry } : {}),
    ...(setup.signal ? { signal: setup.signal } : {}),
    ...(setup.budget ? { budget: setup.budget } : {}),
    ...(setup.reporter ? { reporter: setup.reporter } : {}),
    ...(setup.store ? { store: setup.store } : {}),
    ...(setup.screen
      ? {
          screen: {
            ...setup.screen,
            queries: setup.split.train,
            ...(firstRunOf ? { firstRunOf } : {}),
          },
        }
      : {}),
    createAgent: () => setup.agent(),
  });
  const counted = summary.records.filter((r) => r.outcome !== "cancelled");
  const reusedRuns = counted.filter((r) => r.skipped).length;
  const triggerRuns = counted.length - reusedRuns;
  const costUsd = counted.reduce((sum, r) => sum + (r.record.cost_usd ?? 0), 0);
  const screen = summary.results.screen;
  const made = counted.filter((r) => !r.skipped && setup.split.train.includes(r.queryIndex));
  const testFirst = counted.filter(
    (r) => !r.skipped && r.spec.runNumber === 1 && firstRunOf?.includes(r.queryIndex) === true,
  );
  const byReplay = (runs: typeof counted) => runs.filter((r) => r.record.decided_by === "replay").length;
  const replay: EvaluationReplay | undefined = setup.screen
    ? {
        train_runs: made.length,
        decided_by_replay: byReplay(made),
        ...(firstRunOf
          ? { test_first_runs: testFirst.length, test_decided_by_replay: byReplay(testFirst) }
          : {}),
        captured: screen?.captured === true,
        ...(screen?.off ? { off: screen.off } : {}),
      }
    : undefined;
  if (summary.cancelled) {
    const stopped = setup.budget?.exhausted && !setup.signal?.aborted ? "budget" : "cancelled";
    return {
      train: null,
      test: null,
      triggerRuns,
      reusedRuns,
      costUsd,
      ...(replay ? { replay } : {}),
      stopped,
    };
  }
  const results = summary.results.results;
  const changed =
    results.length !== setup.queries.length || results.some((r, i) => r.query !== setup.queries[i]?.query);
  if (changed) {
    throw new SkillgymError("BAD_INPUT", "triggers.json changed while the optimizer was running", {
      hint: "leave the suite alone during an optimization, then run it again",
    });
  }
  return {
    train: subsetScore(results, setup.split.train),
    test: subsetScore(results, setup.split.test),
    triggerRuns,
    reusedRuns,
    costUsd,
    ...(replay ? { replay } : {}),
  };
}
