import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { costOf } from "../../agents/pricing.js";
import type { TriggerRun } from "../../contracts/run-record.js";
import { writeJson } from "../../runlog/atomic-write.js";
import type { TriggerRunSpec } from "../plan.js";
import type { TriggerRunRecord } from "../run-trigger.js";
import type { FirstTurn, FirstTurnVerdict } from "./first-turn.js";

/** A trigger run decided by replay: its trigger.json (decided_by "replay") and the first turn it was read from. */
export async function writeReplayedRun(input: {
  spec: TriggerRunSpec;
  verdict: Exclude<FirstTurnVerdict, { label: "undecided" }>;
  turn: FirstTurn;
  skillName: string;
  /** The name the captured request lists the skill under. */
  listedAs: string;
  simulated: boolean;
  durationMs: number;
}): Promise<TriggerRunRecord> {
  const { spec, verdict } = input;
  const triggered = verdict.label === "triggered";
  const stolen = verdict.label === "stolen" ? verdict.by : [];
  // Stryker disable next-line StringLiteral: equivalent, no model of that name has a price either
  const cost = input.simulated ? 0 : costOf(input.turn.model ?? "", input.turn.usage);
  const record: TriggerRun = {
    query: spec.query,
    should_trigger: spec.shouldTrigger,
    synthetic_name: input.listedAs,
    triggered,
    skills_loaded: triggered ? [input.skillName] : stolen,
    stolen_by: stolen,
    outcome: "success",
    attempts: 1,
    duration_ms: input.durationMs,
    model_requests: 1,
    // The replayed request's own tokens, priced by the model that answered; unknown for a model with no price.
    ...(cost !== undefined ? { cost_usd: cost } : { cost_source: "unknown" as const }),
    simulated: input.simulated,
    decided_by: "replay",
  };
  await mkdir(spec.runDir, { recursive: true });
  await writeJson(join(spec.runDir, "replay-turn.json"), { verdict: verdict.label, ...input.turn });
  await writeJson(join(spec.runDir, "trigger.json"), record);
  return {
    spec,
    queryIndex: spec.queryIndex,
    triggered,
    stolenBy: stolen,
    outcome: "success",
    attempts: 1,
    durationMs: input.durationMs,
    skipped: false,
    record,
  };
}

/** An agent's run marked as decided by the agent (and, when checked against a replay, whether they agreed). */
export async function markedAgentRun(record: TriggerRunRecord, agreed?: boolean): Promise<TriggerRunRecord> {
  if (record.skipped || record.reusedFrom) return record;
  const marked: TriggerRun = {
    ...record.record,
    decided_by: "agent",
    ...(agreed !== undefined ? { replay_agreed: agreed } : {}),
  };
  await writeJson(join(record.spec.runDir, "trigger.json"), marked);
  return { ...record, record: marked };
}
