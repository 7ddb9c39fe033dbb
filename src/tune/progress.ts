import type { IterationState, TuneIteration } from "../contracts/iteration-state.js";
import type { TuneContext } from "./context.js";
import { tunePaths } from "./paths.js";

/** Counts a failed iteration once, however many of its phases failed (the seed's error budget is per iteration). */
export function recordError(state: IterationState, iteration: TuneIteration, message: string): void {
  if (iteration.error === undefined) {
    state.error_count++;
    state.consecutive_errors++;
  }
  iteration.error = iteration.error === undefined ? message : `${iteration.error}; ${message}`;
}

export function completeIteration(ctx: TuneContext, iteration: TuneIteration): void {
  iteration.status = "completed";
  iteration.finished_at = ctx.now().toISOString();
  if (iteration.error === undefined) ctx.state.consecutive_errors = 0;
}

/** The iteration that measured the best version so far. */
export function bestIteration(state: IterationState): TuneIteration | undefined {
  // No best yet (null) matches no version.
  return state.iterations.find((it) => it.version === state.current_best && it.evaluation !== null);
}

/** The folders (relative to the tune) holding each skill of a measured iteration's version. */
export function versionDirs(ctx: TuneContext, iteration: TuneIteration): Record<string, string> {
  const snapshot = iteration.skill_snapshot ?? tunePaths.snapshot(iteration.round);
  return Object.fromEntries(ctx.order.map((name) => [name, `${snapshot}/${name}`]));
}

/** The best version's folders, or the originals when nothing was measured yet. */
export function bestDirs(ctx: TuneContext): Record<string, string> {
  const best = bestIteration(ctx.state);
  if (best) return versionDirs(ctx, best);
  return Object.fromEntries(ctx.order.map((name) => [name, tunePaths.original(name)]));
}

/**
 * What the next iteration measures: the last improvement's result (or the version it rolled back to); the same
 * version again when the last iteration could not measure it; the originals at first.
 */
export function nextCandidate(
  ctx: TuneContext,
  round: number,
): { dirs: Record<string, string>; parent: string | null } {
  const previous = ctx.state.iterations[round - 2];
  if (!previous) return { dirs: bestDirs(ctx), parent: null };
  if (previous.improvement?.next_candidate)
    return {
      dirs: previous.improvement.next_candidate,
      parent: previous.improvement.from_version ?? ctx.state.current_best,
    };
  return { dirs: versionDirs(ctx, previous), parent: previous.parent ?? null };
}
