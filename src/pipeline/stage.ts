import type { Suite } from "../suite/index.js";

/** One stage of the pipeline alone: `eval` (artifact evals) or `triggers` over several models; both when absent. */
export type Stage = "evals" | "triggers";

/** The suite as the stage sees it: the other stage's file and items left out, so nothing plans or runs them. */
export function stageSuite(suite: Suite, stage: Stage | undefined): Suite {
  if (stage === "evals") {
    const { triggersFile: _file, ...rest } = suite;
    return { ...rest, triggers: [] };
  }
  if (stage === "triggers") {
    const { evalsFile: _file, ...rest } = suite;
    return { ...rest, evals: [] };
  }
  return suite;
}
