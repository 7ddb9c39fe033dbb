import type { TriggerRunSpec } from "../plan.js";
import type { TriggerRunRecord } from "../run-trigger.js";
import { classifyFirstTurn } from "./first-turn.js";
import { markedAgentRun, writeReplayedRun } from "./replayed-run.js";
import type { ScreenOptions } from "./replayer.js";
import { type ScreenRunsInput, type ScreenSummary, screenRuns } from "./screen-runs.js";

export type { ScreenOptions, ScreenSummary };

/** Whether replay goes first for this run: every run, the runs of `queries`, and the first runs of `firstRunOf`. */
export function screensRun(
  screen: ScreenOptions,
  spec: Pick<TriggerRunSpec, "queryIndex" | "runNumber">,
): boolean {
  if (screen.queries === undefined) return true;
  if (screen.queries.includes(spec.queryIndex)) return true;
  return spec.runNumber === 1 && (screen.firstRunOf?.includes(spec.queryIndex) ?? false);
}

interface TriggerHooks {
  finishedEarlier(spec: TriggerRunSpec): Promise<TriggerRunRecord | undefined>;
  run(spec: TriggerRunSpec): Promise<TriggerRunRecord>;
}

export interface ScreenInput extends ScreenRunsInput {
  hooks: TriggerHooks;
}

/**
 * The trigger scheduler's hooks with replay in front of the agent: each run first sends the agent's captured first
 * request with its query; a first turn that decides the run is its verdict, any other goes to the agent as before.
 */
export function screenedHooks(input: ScreenInput) {
  const { ctx, hooks } = input;
  const screened = screenRuns<TriggerRunSpec, TriggerRunRecord>(input, {
    query: (spec) => spec.query,
    runNumber: (spec) => spec.runNumber,
    screened: (spec) => screensRun(input.screen, spec),
    agentRun: (spec) => hooks.run(spec),
    markAgent: markedAgentRun,
    classify: (turn, target) =>
      classifyFirstTurn(turn, target.capture.synthetic_name, target.adapter.skillOf),
    writeReplayed: (spec, verdict, turn, target, durationMs) =>
      writeReplayedRun({
        spec,
        verdict,
        turn,
        skillName: ctx.skillName,
        listedAs: target.capture.synthetic_name,
        simulated: ctx.agent.simulated,
        durationMs,
      }),
    agrees: (checked, verdict) =>
      checked.error !== undefined ? undefined : checked.triggered === (verdict.label === "triggered"),
    specOf: (record) => record.spec,
    decidedByReplay: (record) => record.record.decided_by === "replay",
    cancelled: (record) => record.outcome === "cancelled",
  });
  return { finishedEarlier: hooks.finishedEarlier, ...screened };
}
