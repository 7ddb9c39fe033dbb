import { join } from "node:path";
import type { TriggerOptions } from "../../src/triggers/index.js";
import { skillMd, writeTree } from "../e2e/helpers.js";

/** A `haiku` skill with these trigger queries, in `dir/haiku`, for tests that run runTriggers in this process. */
export async function writeHaikuSkill(
  dir: string,
  queries: readonly { query: string; should_trigger: boolean }[],
): Promise<void> {
  await writeTree(dir, {
    "haiku/SKILL.md": skillMd("haiku", "Writes a haiku poem.", "Write a haiku."),
    "haiku/evals/triggers.json": JSON.stringify(queries),
  });
}

/**
 * runTriggers' options for that skill into `dir/workspace`: one run a query, one at a time (each run has ended before
 * the next is taken, whatever the load), a minute each; `rest` fills in the agent and anything else.
 */
export function haikuTriggerOptions(
  dir: string,
  workspace: string,
  rest: Partial<TriggerOptions> & Pick<TriggerOptions, "createAgent">,
): TriggerOptions {
  return {
    skillPath: join(dir, "haiku"),
    workspace: join(dir, workspace),
    runs: 1,
    threshold: 0.5,
    concurrency: 1,
    timeoutSeconds: 60,
    ...rest,
  };
}
