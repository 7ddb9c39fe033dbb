import type { ExecutionMode } from "../contracts/iteration-state.js";
import type { TuneOptions } from "./options.js";
import { runTune, type TuneResult } from "./run-tune.js";

export interface TunesOptions extends Omit<TuneOptions, "skillPaths" | "mode"> {
  /** The skill folders: one chain (in chain order) in chain mode, else each tuned on its own. */
  skillPaths: string[];
  mode: ExecutionMode;
  /** After each tune, before the next starts (e.g. to apply its best version). */
  onTuneEnd?: (result: TuneResult) => Promise<void> | void;
}

/** The tunes one command runs: a chain or a resume is one tune; single mode tunes each skill on its own. */
export function tuneGroups(skillPaths: string[], mode: ExecutionMode, resuming: boolean): string[][] {
  return resuming || mode === "chain" ? [skillPaths] : skillPaths.map((s) => [s]);
}

/** Runs the tunes one after the other; a cancelled tune ends the command's tunes. */
export async function runTunes(options: TunesOptions): Promise<TuneResult[]> {
  const { onTuneEnd, ...tune } = options;
  const results: TuneResult[] = [];
  for (const group of tuneGroups(options.skillPaths, options.mode, options.resumeDir !== undefined)) {
    const result = await runTune({ ...tune, skillPaths: group });
    results.push(result);
    await onTuneEnd?.(result);
    if (result.cancelled) break;
  }
  return results;
}
