import type { RunOptions } from "../run/options.js";
import type { ScreenOptions } from "./replay/index.js";
import type { TriggerReporter } from "./reporter.js";
import type { ConditionSets } from "./side-by-side.js";

export interface TriggerOptions extends RunOptions {
  /** Write into this iteration folder instead of choosing one (used by `run`). */
  iterationDir?: string;
  threshold: number;
  /** Test this description instead of the one in SKILL.md (the skill itself is not changed). */
  description?: string;
  /** Other skills installed beside the one under test, to see which of them takes a query. */
  withSkills?: string[];
  /** Folders of skill folders (`--installed`): every skill in them is installed beside the one under test. */
  installed?: string[];
  /** The user's project (`--project-root`): each run starts in a copy of it. Absent: an empty folder. */
  project?: string;
  /**
   * `--conditions`: the clean room, the given conditions ("real"), or both side by side in one iteration. Absent: the
   * given conditions, or the clean room when none is given.
   */
  conditions?: ConditionSets;
  /** `--context`: a prior conversation (a JSON file of user and assistant turns) each run continues. */
  context?: string;
  /** Every query gets all `runs` (`--all-runs`); otherwise a query stops once its verdict is settled. */
  allRuns?: boolean;
  reporter?: TriggerReporter;
  /** `--screen replay`: replay the agent's captured first request per query; the agent makes only undecided runs. */
  screen?: ScreenOptions;
}
