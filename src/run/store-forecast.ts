import { rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { partition } from "../shard/index.js";
import { openStore } from "../store/index.js";
import { createTempRoot } from "../workspace/temp-root.js";
import { evalSetup, stagingContext } from "./eval-setup.js";
import { storeSettings } from "./options.js";
import { planRuns } from "./plan.js";
import { evalRunKey, gradingKey, workspaceHashes } from "./reuse.js";
import { type EvalOptions, runIdentity } from "./run-evals.js";

const isDirectory = async (path: string) => (await stat(path).catch(() => undefined))?.isDirectory() === true;

/** What the result store would serve of a planned command, and what would be left to make. */
export interface StoreForecast {
  /** Planned runs (for trigger runs: the most, `--runs` per query). */
  runs: number;
  served: number;
  /** Runs left to make; for trigger runs the most, since a query may settle sooner. */
  toRun: number;
  /** Judge calls: those that come with served runs, and those left to make. */
  judgeServed: number;
  judgeToRun: number;
  /** The workspace the command would write to, and the store it reads (absent: none, or `--fresh`). */
  workspace: string;
  storeDir?: string;
}

/**
 * Which eval runs the store holds, found by the same keys a real run computes (the staged workspace is hashed);
 * the agent is only asked for its identity, no model is called.
 */
export async function forecastEvalRuns(
  options: Omit<EvalOptions, "reporter" | "afterRun" | "afterEarlierRun">,
  grade: boolean,
): Promise<StoreForecast> {
  const setup = await evalSetup(options);
  const planned = planRuns({
    evals: setup.evals,
    configurations: setup.configurations,
    runs: options.runs,
    // Stryker disable next-line StringLiteral: equivalent, nothing is written there and the keys read only the eval's folder name
    iterationDir: join(setup.workspace, "iteration-forecast"),
    defaultTimeoutSeconds: options.timeoutSeconds,
  });
  // A shard forecasts only its own share of the plan.
  const specs = options.shard ? partition(planned, runIdentity, options.shard) : planned;
  const judged = (e: (typeof setup.evals)[number]) => grade && e.expectations.length > 0;
  const judgeCalls = specs.filter((s) => judged(s.eval)).length;
  const store = options.store ? openStore(storeSettings(options.store, setup.workspace)) : undefined;
  const none = {
    runs: specs.length,
    served: 0,
    toRun: specs.length,
    judgeServed: 0,
    judgeToRun: judgeCalls,
    workspace: setup.workspace,
  };
  if (!store?.reads) return none;
  // A store not yet written holds nothing: no workspace need be staged to know it.
  if (!(await isDirectory(store.dir))) return { ...none, storeDir: store.dir };
  const agent = await options.createAgent({ skill: setup.skill, suite: setup.suite });
  const tempRoot = await createTempRoot("run");
  const judge = options.store?.judge ?? "default";
  let served = 0;
  let judgeServed = 0;
  try {
    const ctx = stagingContext(setup, options, agent, tempRoot);
    const workspaceOf = workspaceHashes(ctx);
    for (const spec of specs) {
      const stored = await store.get("eval-run", await evalRunKey(spec, ctx, workspaceOf));
      if (!stored) continue;
      served++;
      if (judged(spec.eval) && stored.entry.grading_key === gradingKey(spec, judge)) judgeServed++;
    }
  } finally {
    await rm(tempRoot, {
      recursive: true,
      // Stryker disable next-line BooleanLiteral: equivalent, the temp root made above is there to remove
      force: true,
    });
  }
  return {
    runs: specs.length,
    served,
    toRun: specs.length - served,
    judgeServed,
    judgeToRun: judgeCalls - judgeServed,
    workspace: setup.workspace,
    storeDir: store.dir,
  };
}
