import { suiteConditions } from "../suite/index.js";
import { type ConditionSets, checkConditionSets } from "./side-by-side.js";

interface ConditionOptions {
  project?: string;
  installed?: string[];
  context?: string;
  conditions?: ConditionSets;
}

/**
 * The trigger options with the suite's `"conditions"` filling in what the command line left out: a flag wins over the
 * suite's field of the same name. `side_by_side: true` asks for the clean room and the real conditions.
 */
export async function withSuiteConditions<O extends ConditionOptions>(
  options: O,
  suite: { dir: string; evalsFile?: string | undefined },
): Promise<O> {
  const asked = await suiteConditions(suite);
  if (!asked) return options;
  // `side_by_side: true`: the clean room and the real conditions, the real ones checked below.
  const both = { clean: true, real: true };
  const merged = {
    ...options,
    ...(options.project === undefined && asked.projectRoot ? { project: asked.projectRoot } : {}),
    ...(options.installed === undefined && asked.installed ? { installed: asked.installed } : {}),
    ...(options.context === undefined && asked.context ? { context: asked.context } : {}),
    ...(options.conditions === undefined && asked.sideBySide ? { conditions: both } : {}),
  };
  if (options.conditions === undefined && asked.sideBySide)
    checkConditionSets(both, merged, `${asked.file}: conditions.side_by_side`);
  return merged;
}
