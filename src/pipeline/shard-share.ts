import { configurationsFor } from "../run/eval-setup.js";
import { planRuns, selectEvals } from "../run/plan.js";
import { runIdentity } from "../run/run-evals.js";
import { partition, type Shard } from "../shard/index.js";
import type { Suite } from "../suite/model.js";
import { planTriggerRuns } from "../triggers/plan.js";
import { triggerRunIdentity } from "../triggers/run-triggers.js";

export interface ShardShare {
  agentRuns: number;
  judgeCalls: number;
  triggerRuns: number;
}

/** The runs one shard of the plan makes: the same partition `--shard i/n` deals at run time, counted. */
export function shardShare(input: {
  suite: Suite;
  evalIds?: readonly string[];
  baseline: string;
  runs: number;
  triggerRuns: number;
  grade: boolean;
  shard: Shard;
}): ShardShare {
  const evals = selectEvals(input.suite.evals, input.evalIds ? [...input.evalIds] : undefined);
  const specs = planRuns({
    evals,
    configurations: configurationsFor(input.baseline),
    runs: input.runs,
    // Stryker disable next-line StringLiteral: equivalent, only the count is kept and a run's identity leaves out its folder
    iterationDir: "",
    defaultTimeoutSeconds: 0,
  });
  const mine = partition(specs, runIdentity, input.shard);
  // Stryker disable next-line StringLiteral: equivalent, only the count is kept and a trigger run's identity leaves out its folder and synthetic name
  const triggers = planTriggerRuns(input.suite.triggers, input.triggerRuns, "", "skill");
  return {
    agentRuns: mine.length,
    judgeCalls: input.grade ? mine.filter((s) => s.eval.expectations.length > 0).length : 0,
    triggerRuns: partition(triggers, triggerRunIdentity, input.shard).length,
  };
}
