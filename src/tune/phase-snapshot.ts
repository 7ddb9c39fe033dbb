import type { TuneIteration } from "../contracts/iteration-state.js";
import type { TuneContext } from "./context.js";
import { tunePaths } from "./paths.js";
import { nextCandidate } from "./progress.js";
import { copyEvalsFolder, copySkillFiles } from "./skill-files.js";

/** Starts the next iteration: records it, then snapshots the version it measures (the seed's "snapshot first"). */
export async function startIteration(ctx: TuneContext): Promise<TuneIteration> {
  const round = ctx.state.iterations.length + 1;
  const iteration: TuneIteration = {
    round,
    version: `v${round - 1}`,
    parent: nextCandidate(ctx, round).parent,
    status: "pending",
    skill_snapshot: tunePaths.snapshot(round),
    started_at: ctx.now().toISOString(),
    execution: null,
    evaluation: null,
    improvement: null,
  };
  ctx.state.iterations.push(iteration);
  ctx.state.current_iteration = round;
  await ctx.save();
  ctx.reporter.onIterationStart?.({
    round,
    maxIterations: ctx.state.max_iterations,
    version: iteration.version,
  });
  return iteration;
}

/** Copies the version under test into `iteration-<N>/skill-snapshot/<name>/`; runs only ever see this copy. */
export async function snapshotPhase(ctx: TuneContext, iteration: TuneIteration): Promise<void> {
  const { dirs } = nextCandidate(ctx, iteration.round);
  for (const name of ctx.order) {
    const source = dirs[name] ?? tunePaths.original(name);
    const target = ctx.at(`${tunePaths.snapshot(iteration.round)}/${name}`);
    await copySkillFiles(ctx.at(source), target);
    // The suite's fixtures may be named relative to the skill folder: the measured copy keeps the original's evals/.
    await copyEvalsFolder(ctx.at(tunePaths.original(name)), target);
  }
  iteration.status = "executing";
  await ctx.save();
}
